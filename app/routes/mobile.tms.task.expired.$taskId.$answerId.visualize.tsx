/** `mobile/tms/task/expired/{taskId}/{answerId}/visualize` (seed 001 §2): the same screen for an expired task. */
export { visualizeLoader as loader, visualizeAction as action } from './__mobile-visualize.server'
export { default, links, handle } from './__mobile-visualize'
export { ErrorBoundary } from './__mobile-visualize'
