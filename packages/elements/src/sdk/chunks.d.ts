// The chunk files of the script tag, written by the build (rollup.config.mjs) once the chunks are built: for each
// part, its own chunk first, then every chunk it imports.
declare module 'svc:chunks' {
  const chunks: Readonly<
    Record<
      | 'svc-provider'
      | 'svc-decision'
      | 'svc-consent-field'
      | 'svc-inbox'
      | 'svc-records'
      | 'svc-connections'
      | 'svc-delegations'
      | 'svc-receipts'
      | 'svc-agreements'
      | 'svc-data-requests'
      | 'svc-credentials'
      | 'svc-data-offers'
      | 'svc-vouches'
      | 'svc-applications'
      | 'svc-webhooks'
      | 'svc-agents'
      | 'svc-policies'
      | 'svc-evidence'
      | 'svc-governance'
      | 'svc-capture',
      readonly string[]
    >
  >;
  export default chunks;
}
