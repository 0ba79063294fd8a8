/** `mobile/tms/task/{taskId}/{answerId}/visualize` (issue 17): the student's delivered answer and its correction. */
export { visualizeLoader as loader, visualizeAction as action } from './__mobile-visualize.server'
export { default, links, handle } from './__mobile-visualize'
export { ErrorBoundary } from './__mobile-visualize'
