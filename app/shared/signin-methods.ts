/**
 * Sign-in methods a realm may allow (seed 000 §3 `allowed_signin`; issue 3 adds the employee forms). A module of its
 * own, without valibot, so the sign-in page's tabs do not pull the realm schemas into its scripts
 * (tests/workers/page-weight.test.ts); `#shared/schemas/realm` re-exports it.
 */
export const SIGNIN_METHODS = ['iptv', 'google', 'employee', 'employee_token'] as const
export type SigninMethod = (typeof SIGNIN_METHODS)[number]
