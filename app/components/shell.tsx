import { Form, NavLink, useLocation } from '@remix-run/react'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { can } from '~/lib/access'
import { ROUTES, type RouteEntry } from '~/lib/manifest'
import type { RealmConfig } from '~/schemas/realm'
import type { SessionUser } from '~/server/auth.server'
import { LegalLinks, RealmLogo } from './brand'
import { Icon } from './icon'
import { LanguageMenu } from './language-menu'
import { RealmSwitchButton } from './realm-switch'

const NARROW = '(max-width: 800px)'

/** Sidebar entries the user may open: every manifest route with a nav label whose requirement holds. */
export function navEntries(user: Pick<SessionUser, 'permissions'>, config: RealmConfig | null): (RouteEntry & { nav: NonNullable<RouteEntry['nav']> })[] {
  return Object.values(ROUTES as Record<string, RouteEntry>).filter(
    (r): r is RouteEntry & { nav: NonNullable<RouteEntry['nav']> } => Boolean(r.nav) && can(user.permissions, config, r.access),
  )
}

/** The console shell (seed 000 §2.1): sidebar, top bar and content area. */
export function Shell({ user, config, locale, children }: { user: SessionUser; config: RealmConfig; locale: string; children: ReactNode }) {
  const { t } = useTranslation()
  const location = useLocation()
  const [collapsed, setCollapsed] = useState(false)
  const [drawerOpen, setDrawerOpen] = useState(false)
  const [accountOpen, setAccountOpen] = useState(false)
  const accountRef = useRef<HTMLDivElement>(null)
  const entries = navEntries(user, config)

  // After navigation on small screens the drawer closes (seed 000 §2.1).
  useEffect(() => {
    setDrawerOpen(false)
    setAccountOpen(false)
  }, [location.pathname])

  useEffect(() => {
    if (!accountOpen) return
    const onDown = (e: MouseEvent) => {
      if (!accountRef.current?.contains(e.target as Node)) setAccountOpen(false)
    }
    document.addEventListener('mousedown', onDown)
    return () => document.removeEventListener('mousedown', onDown)
  }, [accountOpen])

  function toggleMenu() {
    if (window.matchMedia(NARROW).matches) setDrawerOpen((o) => !o)
    else setCollapsed((c) => !c)
  }

  return (
    <div
      className="shell"
      data-sidebar={collapsed ? 'collapsed' : 'open'}
      data-drawer={drawerOpen ? 'open' : 'closed'}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          setDrawerOpen(false)
          setAccountOpen(false)
        }
      }}
    >
      <aside className="sidebar" id="sidebar" aria-label={t('shell.navigation')}>
        <div className="sidebar-brand">
          <RealmLogo config={config} />
        </div>
        <nav aria-label={t('shell.navigation')}>
          <ul>
            {entries.map((r) => (
              <li key={r.path}>
                <NavLink to={r.path} end={r.path === '/'} title={collapsed ? t(r.nav.label) : undefined}>
                  <span className="nav-icon">
                    <Icon name={r.nav.icon} />
                  </span>
                  <span className="nav-label">{t(r.nav.label)}</span>
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </aside>
      <div className="main">
        <header className="topbar">
          <button
            type="button"
            className="btn btn-icon"
            aria-controls="sidebar"
            aria-expanded={!collapsed || drawerOpen}
            onClick={toggleMenu}
          >
            <Icon name="menu" label={t('shell.menu')} />
          </button>
          <span className="realm-name">{config.name}</span>
          <span className="spacer" />
          <RealmSwitchButton permissions={user.permissions} />
          <LanguageMenu locale={locale} />
          <div className="menu" ref={accountRef}>
            <button
              type="button"
              className="btn"
              aria-haspopup="true"
              aria-expanded={accountOpen}
              aria-controls="account-menu"
              onClick={() => setAccountOpen((o) => !o)}
            >
              <span className="avatar" aria-hidden="true">
                {user.name.slice(0, 1).toUpperCase()}
              </span>
              <span className="visually-hidden">{t('shell.account')}: </span>
              <span className="account-name">{user.name}</span>
            </button>
            {accountOpen ? (
              <div className="menu-panel" id="account-menu">
                <div className="menu-header">{t('shell.signed_in_as', { name: user.nick })}</div>
                <Form method="post" action="/logout">
                  <button type="submit" className="menu-item">
                    <Icon name="logout" /> {t('shell.logout')}
                  </button>
                </Form>
              </div>
            ) : null}
          </div>
        </header>
        <main className="content" id="main" tabIndex={-1}>
          {children}
        </main>
        <footer className="entry-footer" style={{ paddingBottom: '1rem' }}>
          <LegalLinks config={config} />
        </footer>
      </div>
    </div>
  )
}
