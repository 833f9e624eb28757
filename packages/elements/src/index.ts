/** @module @svc/elements */
export {};
