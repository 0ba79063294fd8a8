import { describe, expect, it } from 'vitest'
import { ticketRefusal } from '~/components/live/use-channel-live'
import en from '~/i18n/locales/en-US/live'
import es from '~/i18n/locales/es-ES/live'
import pt from '~/i18n/locales/pt-BR/live'
import { LIVE_CAUSES } from '../../party/channel-protocol'

describe('the participant view names why a ticket was refused', () => {
  it('maps the realm API refusals to their causes, the environment limit included', () => {
    expect(ticketRefusal('limit')).toBe('environment_full')
    expect(ticketRefusal('banned')).toBe('banned')
    expect(ticketRefusal('members_only')).toBe('members_only')
    expect(ticketRefusal('not_found')).toBe('not_found')
    expect(ticketRefusal('something_new')).toBe('unavailable')
    // A room's ticket: closed, outside its window, or full (users per room) rather than the environment.
    expect(ticketRefusal('closed')).toBe('closed')
    expect(ticketRefusal('not_active')).toBe('not_active')
    expect(ticketRefusal('limit', 'validation.live.max_room')).toBe('room_full')
    expect(ticketRefusal('limit', 'validation.live.max_environment')).toBe('environment_full')
  })

  it('has a message for every cause in the three languages', () => {
    for (const catalogue of [pt, en, es]) {
      const messages = catalogue as Record<string, string>
      for (const cause of [...LIVE_CAUSES, 'unavailable']) expect(messages[`live.cause.${cause}`], cause).toBeTruthy()
    }
  })
})
