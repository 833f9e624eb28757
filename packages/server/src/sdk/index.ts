// The script-tag SDK as one route module.
export { createSdkRoutes, sdkRoutes, SDK_CACHE_CONTROL } from './routes.js';
