import type { Kind, MessageType, PayloadOf } from '@svc/protocol';

/**
 * The payload of message type `T` plus the decision's `kind`: one union member per kind, so checking `kind`
 * narrows the payload (a consent's `outcome` is `granted|declined`, an approval's `approved|denied|countered`, a
 * signature request's `signed|declined|countered`).
 */
export type WithKind<T extends MessageType> = { [K in Kind]: PayloadOf<T, K> & { kind: K } }[Kind];
