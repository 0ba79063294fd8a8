/** `?realm=` of a multi-realm host's link, kept on every link and form of a mobile-web page. */
export function realmQuery(request: Request): string {
  const realm = new URL(request.url).searchParams.get('realm')
  return realm ? `realm=${encodeURIComponent(realm)}` : ''
}

/** A path with the query parts that are not empty. */
export const withQuery = (path: string, ...parts: string[]) => {
  const q = parts.filter(Boolean).join('&')
  return q ? `${path}?${q}` : path
}

/** The screen's own path: `…/task/{taskId}/{answerId}/visualize`, or the expired variant `…/task/expired/{taskId}/…`. */
export function visualizePath(taskId: string, answerId: string, expired: boolean) {
  return `/mobile/tms/task/${expired ? 'expired/' : ''}${encodeURIComponent(taskId)}/${encodeURIComponent(answerId)}/visualize`
}
