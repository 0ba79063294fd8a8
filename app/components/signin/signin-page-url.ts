/**
 * The address of the sign-in page's standalone module: built by Vite as a bundle of its own (the `?worker&url` form
 * bundles an entry with its imports, its own Web Worker included, and answers the hashed file's URL), loaded by
 * `<script type="module">` in place of the Remix scripts on a page that does not hydrate (root.tsx).
 */
import url from './signin-page.entry.ts?worker&url'

export const signinModuleUrl: string = url
