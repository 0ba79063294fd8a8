/**
 * A per-request cache for one kind of value: the loaders of one request (run in parallel) share the first
 * computation instead of repeating it.
 */
export function oncePerRequest<T>(): (request: Request, compute: () => Promise<T>) => Promise<T> {
  const memo = new WeakMap<Request, Promise<T>>()
  return (request, compute) => {
    let found = memo.get(request)
    if (!found) {
      found = compute()
      memo.set(request, found)
    }
    return found
  }
}
