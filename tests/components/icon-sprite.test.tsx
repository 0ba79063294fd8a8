import { readFileSync } from 'node:fs'
import { render } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Icon } from '~/components/ui/icon'
import { ICON_PATHS, iconSprite, type IconName } from '~/components/ui/icon-paths'

/** Icons are one sprite file (app/components/ui/icons.svg) that pages reference by name: no path data in a page. */
describe('the icon sprite', () => {
  it('is the file `npm run icons` writes from icon-paths.ts (run it after changing an icon)', () => {
    const file = readFileSync('app/components/ui/icons.svg', 'utf8')
    expect(file).toBe(iconSprite())
    for (const [name, d] of Object.entries(ICON_PATHS)) expect(file).toContain(`<symbol id="${name}" viewBox="0 0 24 24"><path d="${d}"/></symbol>`)
  })

  it('renders a reference to its symbol, decorative without a label and an image named by its label', () => {
    const { container } = render(
      <>
        <Icon name="home" />
        <Icon name={'trash' satisfies IconName} label="Excluir" size={16} />
      </>,
    )
    const [plain, labelled] = [...container.querySelectorAll('svg')]
    expect(container.querySelector('path')).toBeNull()
    expect(plain.querySelector('use')!.getAttribute('href')).toMatch(/\/icons[^#]*\.svg[^#]*#home$/)
    expect(plain.getAttribute('aria-hidden')).toBe('true')
    expect(plain.getAttribute('role')).toBeNull()
    expect(plain.getAttribute('focusable')).toBe('false')
    expect(plain.getAttribute('fill')).toBe('currentColor')
    expect(labelled.querySelector('use')!.getAttribute('href')).toMatch(/#trash$/)
    expect(labelled.getAttribute('role')).toBe('img')
    expect(labelled.getAttribute('aria-label')).toBe('Excluir')
    expect(labelled.getAttribute('aria-hidden')).toBeNull()
    expect(labelled.getAttribute('width')).toBe('16')
  })
})
