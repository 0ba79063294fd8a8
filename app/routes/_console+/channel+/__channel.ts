import * as v from 'valibot'
import { ChannelCreate, ChannelUpdate, MemberNick, MemberPermissionInput, SWITCH_MODES } from '#shared/schemas/channel'

/** The member forms of the edit screen, each posting `?intent=<intent>` to its action. */
export const MEMBER_INTENTS = ['add_member', 'change_member', 'remove_member', 'owner'] as const
export type MemberIntent = (typeof MEMBER_INTENTS)[number]
export const ChangeMember = v.object({ nick: MemberNick, ...MemberPermissionInput.entries })
export const MemberRef = v.object({ nick: MemberNick })
export const OwnerRef = v.object({
  nick: MemberNick,
  previous: v.optional(v.picklist(['admin', 'operator', 'recorder', 'mobile'] as const, 'validation.picklist'), 'admin'),
})

/** The hidden value of a banner or avatar removed on the screen (sent to the API as `''`). */
export const REMOVE_IMAGE = 'remove'

/** The form's schema: the API's own create or update body. */
export const channelSchema = (mode: 'create' | 'edit') => (mode === 'create' ? ChannelCreate : ChannelUpdate)

/**
 * The channel form's values (`prepareChannel(mode)`) → the API's body, in the browser (live) and in the action: an unchecked mode switch
 * posts nothing, so every switch the form shows is false unless checked; extra settings are key/value rows on the
 * screen and a record in the API; a removed image is `''`.
 */
export const prepareChannel = (mode: 'create' | 'edit') => (values: Record<string, unknown>) => channelBody(mode, values)

function channelBody(mode: 'create' | 'edit', values: Record<string, unknown>): Record<string, unknown> {
  const { extra_list, ...rest } = values
  const modes = { ...((rest.modes as Record<string, unknown> | undefined) ?? {}) }
  for (const m of SWITCH_MODES) modes[m] = modes[m] === true
  const extra: Record<string, unknown> = {}
  for (const row of Array.isArray(extra_list) ? (extra_list as { key?: unknown; value?: unknown }[]) : []) {
    if (typeof row?.key === 'string' && row.key !== '') extra[row.key] = typeof row.value === 'string' ? row.value : ''
  }
  const out: Record<string, unknown> = { ...rest, modes, extra, welcome: rest.welcome ?? [], password_remove: rest.password_remove === true }
  for (const f of ['banner_file_id', 'avatar_file_id']) if (out[f] === REMOVE_IMAGE) out[f] = ''
  // A new channel's member list emptied on the screen is an empty list (the API answers "no owner").
  if (mode === 'create') out.members = out.members ?? []
  else delete out.members
  return out
}
