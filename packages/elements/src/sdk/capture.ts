// The chunk the script tag's loader imports for the snippet (`<form data-svc-flow>`) and for `Svc.attachCapture`:
// the capture helper over the organisation's own consent controls, without any element.
export { attachCapture, autoAttach, CaptureError, CaptureErrorCode } from '@svc/capture';
