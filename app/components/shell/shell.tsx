import { Form, Link, NavLink, useLocation } from '@remix-run/react'
import { ClockProvider } from '~/components/ui/clock'
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { VisibleSection } from '~/lib/navigation'
import type { RealmConfig } from '#shared/schemas/realm'
import type { Settings } from '#shared/schemas/settings'
import type { ShellUser } from '~/server/auth.server'
import { LegalLinks, RealmLogo } from '../signin/brand'
import { CreditBalance } from './credit-balance'
import { NetworkIndicator } from './heartbeat'
import { Icon } from '../ui/icon'
import { LanguageMenu } from './language-menu'
import { SettingsDrawer } from './settings-drawer'
import { RealmSwitchButton } from './realm-switch'

/** Narrow screens (seed 000 §9: 800 px): the sidebar is a drawer, closed by default and after navigation. */
export const NARROW_QUERY = '(max-width: 800px)'

export interface ShellProps {
  user: ShellUser
  config: RealmConfig
  locale: string
  settings: Settings
  nav: VisibleSection[]
  /** Credit balance of the user's wallet when the realm has the ledger (null: unavailable). */
  balance: number | null
  hideSidebar?: boolean
  children: ReactNode
}

/** The console shell (seed 000 §2.1, §2.5): sidebar (240 px open, 64 px collapsed), top bar and content. */
export function Shell({ user, config, locale, settings, nav, balance, hideSidebar, children }: ShellProps) {
  const { t } = useTranslation()
  const location = useLocation()
  const [collapsed, setCollapsed] = useState(false)
  const [drawerOpen, setDrawerOpen] = useState(false)
  const [settingsOpen, setSettingsOpen] = useState(false)
  const closeSettings = useCallback(() => setSettingsOpen(false), [])

  useEffect(() => setDrawerOpen(false), [location.pathname])

  function toggleMenu() {
    if (window.matchMedia(NARROW_QUERY).matches) setDrawerOpen((o) => !o)
    else setCollapsed((c) => !c)
  }

  const main = nav.filter((s) => s.group === 'main')
  const manage = nav.filter((s) => s.group === 'manage')
  return (
    <div
      className="shell"
      data-sidebar={hideSidebar ? 'hidden' : collapsed ? 'collapsed' : 'open'}
      data-drawer={drawerOpen ? 'open' : 'closed'}
      onKeyDown={(e) => e.key === 'Escape' && setDrawerOpen(false)}
    >
      {hideSidebar ? null : (
        <aside className="sidebar" id="sidebar" aria-label={t('shell.navigation')}>
          <div className="sidebar-brand">
            <Link to="/" aria-label={t('nav.overview')}>
              <RealmLogo config={config} />
            </Link>
          </div>
          <nav aria-label={t('shell.navigation')}>
            <ul className="nav-list">
              <li>
                <NavLink to="/" end className="nav-link" title={collapsed ? t('nav.overview') : undefined}>
                  <span className="nav-icon">
                    <Icon name="home" />
                  </span>
                  <span className="nav-label">{t('nav.overview')}</span>
                </NavLink>
              </li>
              {main.map((s) => (
                <NavSectionItem key={s.id} section={s} collapsed={collapsed} />
              ))}
            </ul>
            {manage.length ? (
              <>
                <h2 className="nav-heading">
                  <span className="nav-label">{t('nav.manage')}</span>
                </h2>
                <ul className="nav-list">
                  {manage.map((s) => (
                    <NavSectionItem key={s.id} section={s} collapsed={collapsed} />
                  ))}
                </ul>
              </>
            ) : null}
          </nav>
        </aside>
      )}
      {drawerOpen ? <button type="button" className="drawer-backdrop" aria-label={t('shell.menu.close')} onClick={() => setDrawerOpen(false)} /> : null}
      <div className="main">
        <header className="topbar">
          {hideSidebar ? (
            <Link to="/" className="btn btn-icon">
              <Icon name="home" label={t('nav.overview')} />
            </Link>
          ) : (
            <button type="button" className="btn btn-icon" aria-controls="sidebar" aria-expanded={drawerOpen || !collapsed} onClick={toggleMenu}>
              <Icon name="menu" label={t('shell.menu')} />
            </button>
          )}
          <span className="realm-name">{config.name}</span>
          <span className="spacer" />
          <NetworkIndicator />
          {config.ledger_enabled && balance !== null ? <CreditBalance balance={balance} locale={locale} /> : null}
          {user.canSwitchRealm ? <RealmSwitchButton /> : null}
          <LanguageMenu locale={locale} />
          <AccountMenu user={user} config={config} onSettings={() => setSettingsOpen(true)} />
        </header>
        <main className="content" id="main" tabIndex={-1}>
          <ClockProvider clock={{ locale, timeZone: config.time_zone || 'America/Sao_Paulo' }}>{children}</ClockProvider>
        </main>
        <footer className="app-footer">
          <LegalLinks config={config} />
        </footer>
      </div>
      <SettingsDrawer open={settingsOpen} onClose={closeSettings} settings={settings} />
    </div>
  )
}

/** A sidebar section: a single link, or a disclosure with its links (open when it holds the current page). */
/** The item of a section that holds the current page: the longest path that is a prefix of it. */
function currentItem(section: VisibleSection, pathname: string) {
  return section.items.filter((i) => pathname === i.path || pathname.startsWith(`${i.path}/`)).sort((a, b) => b.path.length - a.path.length)[0]
}

function NavSectionItem({ section, collapsed }: { section: VisibleSection; collapsed: boolean }) {
  const { t } = useTranslation()
  const location = useLocation()
  const active = currentItem(section, location.pathname)
  const current = Boolean(active)
  const [open, setOpen] = useState(current)
  useEffect(() => {
    if (current) setOpen(true)
  }, [current])
  if (section.items.length === 1 || collapsed) {
    const first = section.items[0]
    return (
      <li>
        <Link
          to={first.path}
          className={`nav-link${current ? ' is-current' : ''}`}
          aria-current={current ? 'page' : undefined}
          title={collapsed ? t(section.label) : undefined}
        >
          <span className="nav-icon">
            <Icon name={section.icon} />
          </span>
          <span className="nav-label">{t(section.label)}</span>
        </Link>
      </li>
    )
  }
  const id = `nav-${section.id}`
  return (
    <li>
      <button
        type="button"
        className={`nav-link nav-toggle${current ? ' is-current' : ''}`}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="nav-icon">
          <Icon name={section.icon} />
        </span>
        <span className="nav-label">{t(section.label)}</span>
        <span className={`nav-caret${open ? ' is-open' : ''}`}>
          <Icon name="chevronDown" size={16} />
        </span>
      </button>
      {/* A closed section's links are not rendered (hidden, they reach nobody: no screen reader, no keyboard, no
          find-in-page); they were most of the shell's markup on every page. The list stays for aria-controls. */}
      <ul id={id} className="nav-sub" hidden={!open}>
        {open
          ? section.items.map((i) => (
              <li key={i.route}>
                <Link to={i.path} className="nav-link" aria-current={active?.route === i.route ? 'page' : undefined}>
                  <span className="nav-label">{t(i.label)}</span>
                </Link>
              </li>
            ))
          : null}
      </ul>
    </li>
  )
}

/** Account menu (seed 000 §2.1): edit profile, settings, logout. */
function AccountMenu({ user, config, onSettings }: { user: ShellUser; config: RealmConfig; onSettings: () => void }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const ref = useRef<HTMLDivElement>(null)
  const location = useLocation()
  useEffect(() => setOpen(false), [location.pathname])
  useEffect(() => {
    if (!open) return
    const onDown = (e: MouseEvent) => !ref.current?.contains(e.target as Node) && setOpen(false)
    document.addEventListener('mousedown', onDown)
    return () => document.removeEventListener('mousedown', onDown)
  }, [open])
  const canEdit = user.canEditProfile
  const foreign = user.origin_realm !== config.realm
  return (
    <div className="menu" ref={ref} onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}>
      <button
        type="button"
        className="btn account-button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls="account-menu"
        onClick={() => setOpen((o) => !o)}
      >
        <span className="avatar" aria-hidden="true">
          {user.avatar_url ? <img src={user.avatar_url} alt="" /> : user.name.slice(0, 1).toUpperCase()}
        </span>
        <span className="visually-hidden">{t('shell.account')}: </span>
        <span className="account-name">{user.name}</span>
      </button>
      {open ? (
        <div className="menu-panel" id="account-menu">
          <div className="menu-header">{t('shell.signed_in_as', { name: user.nick })}</div>
          {canEdit ? (
            foreign ? (
              // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a disabled menu item stays focusable so keyboard users hear why (WAI-ARIA menu practice)
              <span className="menu-item is-disabled" aria-disabled="true" title={t('shell.profile.foreign')} tabIndex={0}>
                <Icon name="user" /> {t('shell.profile')}
                <span className="visually-hidden"> — {t('shell.profile.foreign')}</span>
              </span>
            ) : (
              <Link className="menu-item" to={`/user/edit/${encodeURIComponent(user.nick)}`}>
                <Icon name="user" /> {t('shell.profile')}
              </Link>
            )
          ) : null}
          <button
            type="button"
            className="menu-item"
            onClick={() => {
              setOpen(false)
              onSettings()
            }}
          >
            <Icon name="settings" /> {t('settings.title')}
          </button>
          <Form method="post" action="/logout">
            <button type="submit" className="menu-item">
              <Icon name="logout" /> {t('shell.logout')}
            </button>
          </Form>
        </div>
      ) : null}
    </div>
  )
}
