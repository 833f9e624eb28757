// The people's pages' own paths beside the families': the session's sign-in, callback, sign-out and token.
export const SIGN_IN_PATH = '/session/sign_in';
export const SIGN_OUT_PATH = '/session/sign_out';
export const TOKEN_PATH = '/session/access_token';
export const PEOPLE_CSS_PATH = '/people/people.css';
