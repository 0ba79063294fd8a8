import { Link } from '@remix-run/react'
import { useMemo, useState, type KeyboardEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
/** What the category screens read of a node of the realm's category tree (`GET room/category/with-children`). */
export interface CategoryNode {
  id: string
  name: string
  parent: string | null
  priority: number
  children?: CategoryNode[]
}

import { Icon } from '../ui/icon'

/** The nodes whose name matches `needle`, with their ancestors (so matches stay in place); all when empty. */
function prune(nodes: CategoryNode[], needle: string): CategoryNode[] {
  if (!needle) return nodes
  return nodes.flatMap((n) => {
    const children = prune(n.children ?? [], needle)
    return n.name.toLowerCase().includes(needle) || children.length ? [{ ...n, children }] : []
  })
}

/**
 * The category tree (WAI-ARIA tree view): Up/Down move between visible items, Right opens or enters, Left closes or
 * goes to the parent, Enter follows the item's link. A filter keeps matches with their ancestors.
 */
export function CategoryTree({ roots, actions }: { roots: CategoryNode[]; actions: (node: CategoryNode) => ReactNode }) {
  const { t } = useTranslation()
  const [filter, setFilter] = useState('')
  const [closed, setClosed] = useState<Set<string>>(new Set())
  const needle = filter.trim().toLowerCase()
  const shown = useMemo(() => prune(roots, needle), [roots, needle])
  const toggle = (id: string) =>
    setClosed((s) => {
      const n = new Set(s)
      if (n.has(id)) n.delete(id)
      else n.add(id)
      return n
    })

  function onKey(e: KeyboardEvent<HTMLElement>, node: CategoryNode) {
    const items = [...(e.currentTarget.closest('[role="tree"]')?.querySelectorAll<HTMLElement>('[role="treeitem"]') ?? [])].filter(
      (el) => el.offsetParent !== null || el.getClientRects().length,
    )
    const at = items.indexOf(e.currentTarget)
    const open = !closed.has(node.id) && (node.children?.length ?? 0) > 0
    const focus = (el?: HTMLElement | null) => {
      if (!el) return
      e.preventDefault()
      el.focus()
    }
    if (e.target !== e.currentTarget) return
    if (e.key === 'ArrowDown') focus(items[at + 1])
    else if (e.key === 'ArrowUp') focus(items[at - 1])
    else if (e.key === 'ArrowRight') {
      e.preventDefault()
      if (node.children?.length && closed.has(node.id)) toggle(node.id)
      else if (open) focus(items[at + 1])
    } else if (e.key === 'ArrowLeft') {
      e.preventDefault()
      if (open) toggle(node.id)
      else focus(e.currentTarget.parentElement?.closest<HTMLElement>('[role="treeitem"]'))
    } else if (e.key === 'Enter') focus(e.currentTarget.querySelector<HTMLAnchorElement>('a'))
  }

  const render = (nodes: CategoryNode[], level: number): ReactNode =>
    nodes.map((node, i) => {
      const hasChildren = (node.children?.length ?? 0) > 0
      const open = needle ? true : !closed.has(node.id)
      return (
        <li
          key={node.id}
          // eslint-disable-next-line jsx-a11y/role-has-required-aria-props -- a navigation tree selects nothing: WAI-ARIA's tree pattern leaves aria-selected out when items are not selectable
          role="treeitem"
          aria-level={level}
          aria-posinset={i + 1}
          aria-setsize={nodes.length}
          aria-expanded={hasChildren ? open : undefined}
          tabIndex={level === 1 && i === 0 ? 0 : -1}
          onKeyDown={(e) => onKey(e, node)}
          className="tree-item"
        >
          <div className="tree-row">
            {hasChildren ? (
              <button type="button" className="btn btn-icon tree-toggle" tabIndex={-1} onClick={() => toggle(node.id)} aria-hidden="true">
                <Icon name={open ? 'chevronDown' : 'chevronRight'} size={16} />
              </button>
            ) : (
              <span className="tree-spacer" />
            )}
            <span className="tree-name">{node.name}</span>
            {hasChildren ? <span className="badge">{node.children?.length}</span> : null}
            <span className="tree-actions">{actions(node)}</span>
          </div>
          {hasChildren && open ? (
            <ul role="group" className="tree-group">
              {render(node.children ?? [], level + 1)}
            </ul>
          ) : null}
        </li>
      )
    })

  return (
    <div className="category-tree">
      <div className="field">
        <label htmlFor="category-filter">{t('resources.category.filter')}</label>
        <input id="category-filter" className="input" type="search" value={filter} onChange={(e) => setFilter(e.currentTarget.value)} />
      </div>
      {shown.length === 0 ? (
        <p className="empty">{t(roots.length ? 'resources.category.no_match' : 'resources.category.empty')}</p>
      ) : (
        <ul role="tree" aria-label={t('resources.category.tree')} className="tree">
          {render(shown, 1)}
        </ul>
      )}
      <p className="hint">{t('resources.category.keys')}</p>
    </div>
  )
}

/** Links of a tree item (kept apart so the list screen decides what a user may do). */
export function CategoryLink({ to, icon, label }: { to: string; icon: 'plus' | 'edit'; label: string }) {
  return (
    <Link className="btn btn-icon" to={to}>
      <Icon name={icon} label={label} />
    </Link>
  )
}
