import { createContext, useContext } from 'react'

/**
 * The Content-Security-Policy nonce of the page being rendered on the server (entry.server.tsx provides it). In the
 * browser it is undefined: inline scripts exist only in the server's HTML, and browsers hide nonces from the DOM.
 */
export const NonceContext = createContext<string | undefined>(undefined)

export function useNonce(): string | undefined {
  return useContext(NonceContext)
}
