/** @module @svc/capture */
export {};
