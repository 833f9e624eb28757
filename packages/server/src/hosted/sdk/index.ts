// The script-tag SDK as one route module.
export { CHUNK_CACHE_CONTROL, createSdkRoutes, sdkRoutes, SDK_CACHE_CONTROL } from './routes.js';
