import { describe, expect, it } from 'vitest'
import { PERMISSIONS, permissionMap } from '#shared/schemas/permission'
import { computeNav, visibleNav } from '~/lib/navigation'

/** A deterministic pseudo-random sequence (the same subsets on every run). */
function sequence(seed: number) {
  let x = seed
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31
    return x / 2 ** 31
  }
}

describe('the sidebar (app/lib/navigation.ts visibleNav)', () => {
  it('answers what computing it afresh answers, for the empty, the full and 300 random permission sets and every flag', () => {
    const random = sequence(12)
    const sets: string[][] = [[], [...PERMISSIONS]]
    for (let i = 0; i < 300; i++) {
      // Dense and sparse subsets alike.
      const density = random()
      sets.push(PERMISSIONS.filter(() => random() < density))
    }
    for (const granted of sets) {
      for (const config of [
        null,
        { ledger_enabled: false, persona_enabled: false },
        { ledger_enabled: true, persona_enabled: false },
        { ledger_enabled: true, persona_enabled: true },
      ]) {
        const permissions = permissionMap(granted)
        const want = computeNav(permissions, config)
        // Twice: the second from memory.
        expect(visibleNav(permissions, config), granted.join(',')).toEqual(want)
        expect(visibleNav({ ...permissions }, config ? { ...config } : null), granted.join(',')).toEqual(want)
      }
    }
  })

  it('differs for users who see different entries, and a permission no entry names changes nothing', () => {
    const viewer = visibleNav(permissionMap(['mas_user_list']), null)
    expect(viewer.flatMap((s) => s.items.map((i) => i.route))).toContain('user.list')
    expect(visibleNav(permissionMap([]), null)).toEqual([])
    expect(visibleNav(permissionMap(['mas_user_list', 'no_such_permission']), null)).toBe(viewer)
  })
})
