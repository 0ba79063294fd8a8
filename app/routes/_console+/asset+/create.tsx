export { action, default, ErrorBoundary, loader } from './__asset-screen'
