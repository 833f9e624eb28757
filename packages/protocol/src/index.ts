/** @module @svc/protocol */
export {};
