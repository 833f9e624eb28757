/** @module @svc/client */
export {};
