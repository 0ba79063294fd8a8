// Served by the public not-available state until its screen is built.
export { loader } from '../__public-not-available.server'
export { default } from '../__public-not-available'
