// Refusals of decision requests and participant steps: 422 with a stable code, naming the field when there is one.
import { unprocessable, type ApiError } from '../../infra/errors.js';
import type { DecisionRow } from './row.js';

/** The `errors` entry of a refusal that names a field. */
export function field(path: string, code: string, message: string) {
  return [{ path, code, message }];
}

/** A refusal of a participant step: 422 with a stable code. */
export function refuse(code: string, message: string, path?: string): ApiError {
  return unprocessable(message, code, path ? field(path, code, message) : undefined);
}

/** `invalid_transition`: the action is not one the decision's kind or current screen accepts. */
export function invalidTransition(row: Pick<DecisionRow, 'status'>, action: string): ApiError {
  return refuse('invalid_transition', `"${action}" is not possible while the decision is ${row.status}.`, 'action');
}
