/** The message of an account login the user cancelled (pi's wording); callers compare against it. */
export const LOGIN_CANCELLED = "Login cancelled";
