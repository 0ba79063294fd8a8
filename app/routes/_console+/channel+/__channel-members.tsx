import { Form, useFetcher } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type * as v from 'valibot'
import { KitForm, SelectInput, TextInput } from '~/components/form/kit'
import type { IconName } from '~/components/ui/icon'
import { useToast } from '~/components/ui/toast'
import { ChannelMemberInput, MEMBER_PERMISSIONS, type ChannelMember } from '#shared/schemas/channel'
import { ChangeMember, MemberRef, OwnerRef, type MemberIntent } from './__channel'

/**
 * The channel's member list (seed 002 "member list"): search by nick or name, add a user with a permission, change
 * a permission, remove a member, and hand ownership over. Each is a small kit form posting to the edit route's
 * action with its intent; the API keeps exactly one owner and answers its errors on the form.
 */
export function ChannelMembers({ members, q, owner, timeZone }: { members: ChannelMember[]; q: string; owner: string; timeZone: string }) {
  const { t } = useTranslation()
  const permissions = MEMBER_PERMISSIONS.map((p) => ({ value: p, label: t(`resources.channel.permissions.${p}`) }))
  return (
    <section className="card" id="channel-member-list" aria-labelledby="channel-member-list-title">
      <h2 id="channel-member-list-title">{t('resources.channel.members_title', { count: members.length })}</h2>
      <p className="hint">{t('resources.channel.hints.owner', { owner: owner || '—' })}</p>
      <Form method="get" className="inline-form" role="search" aria-label={t('resources.channel.member_search')}>
        <label htmlFor="member-q">{t('resources.channel.member_search')}</label>
        <input id="member-q" className="input" name="q" defaultValue={q} type="search" autoComplete="off" />
        <button type="submit" className="btn">
          {t('resources.channel.search')}
        </button>
      </Form>
      {members.length === 0 ? (
        <p className="hint">{t(q ? 'resources.channel.members_none_found' : 'resources.channel.members_empty')}</p>
      ) : (
        <table className="table member-table">
          <thead>
            <tr>
              <th scope="col">{t('resources.channel.fields.nick')}</th>
              <th scope="col">{t('resources.channel.fields.name')}</th>
              <th scope="col">{t('resources.channel.fields.permission')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('resources.channel.remove')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <MemberRow key={`${m.nick}:${m.permission}`} member={m} permissions={permissions} timeZone={timeZone} />
            ))}
          </tbody>
        </table>
      )}
      <div className="field-grid">
        <MemberForm
          id="channel-member-add"
          schema={ChannelMemberInput}
          intent="add_member"
          defaultValue={{ nick: '', permission: 'operator' }}
          timeZone={timeZone}
          className="card simple-form"
          label={t('resources.channel.add_member')}
          submitIcon="plus"
          labels={{ nick: t('resources.channel.fields.nick'), permission: t('resources.channel.fields.permission') }}
        >
          <TextInput name="nick" label={t('resources.channel.fields.nick')} required autoComplete="off" />
          <SelectInput name="permission" label={t('resources.channel.fields.permission')} options={permissions.filter((p) => p.value !== 'owner')} />
        </MemberForm>
        <MemberForm
          id="channel-owner"
          schema={OwnerRef}
          intent="owner"
          defaultValue={{ nick: '', previous: 'admin' }}
          timeZone={timeZone}
          className="card simple-form"
          label={t('resources.channel.transfer')}
          submitIcon="swap"
          labels={{ nick: t('resources.channel.fields.new_owner'), previous: t('resources.channel.fields.previous_owner') }}
        >
          <TextInput name="nick" label={t('resources.channel.fields.new_owner')} required autoComplete="off" />
          <SelectInput
            name="previous"
            label={t('resources.channel.fields.previous_owner')}
            options={permissions.filter((p) => p.value !== 'owner' && p.value !== 'banned')}
          />
        </MemberForm>
      </div>
    </section>
  )
}

function MemberRow({ member, permissions, timeZone }: { member: ChannelMember; permissions: { value: string; label: string }[]; timeZone: string }) {
  const { t } = useTranslation()
  const isOwner = member.permission === 'owner'
  return (
    <tr>
      <td>{member.nick}</td>
      <td>{member.name}</td>
      <td>
        {isOwner ? (
          <strong>{t('resources.channel.permissions.owner')}</strong>
        ) : (
          <MemberForm
            id={`member-${member.nick}`}
            schema={ChangeMember}
            intent="change_member"
            defaultValue={{ nick: member.nick, permission: member.permission }}
            timeZone={timeZone}
            className="inline-form"
            label={t('resources.channel.change_permission', { nick: member.nick })}
            submitLabel={t('resources.channel.change')}
            labels={{ permission: t('resources.channel.fields.permission') }}
          >
            <input type="hidden" name="nick" value={member.nick} />
            <SelectInput
              name="permission"
              label={t('resources.channel.permission_of', { nick: member.nick })}
              options={permissions.filter((p) => p.value !== 'owner')}
            />
          </MemberForm>
        )}
      </td>
      <td>
        {isOwner ? null : (
          <MemberForm
            id={`member-remove-${member.nick}`}
            schema={MemberRef}
            intent="remove_member"
            timeZone={timeZone}
            className="inline-form"
            label={t('resources.channel.remove_member', { nick: member.nick })}
            submitLabel={t('resources.channel.remove')}
            submitIcon="trash"
          >
            <input type="hidden" name="nick" value={member.nick} />
          </MemberForm>
        )}
      </td>
    </tr>
  )
}

/**
 * One of the member list's kit forms, posting `?intent=<intent>` to the edit route's action with its own fetcher
 * (keyed `channel-<id>`: the page stays; a success is toasted); `label` names the form and, unless `submitLabel`
 * says otherwise, its button.
 */
function MemberForm({
  intent,
  label,
  submitLabel = label,
  ...form
}: {
  id: string
  schema: v.GenericSchema
  intent: MemberIntent
  defaultValue?: Record<string, unknown>
  timeZone: string
  className: string
  label: string
  submitLabel?: string
  submitIcon?: IconName
  labels?: Record<string, string>
  children: ReactNode
}) {
  const toast = useToast()
  const fetcher = useFetcher({ key: `channel-${form.id}` })
  return (
    <KitForm
      {...form}
      fetcher={fetcher as never}
      lastResult={fetcher.data}
      action={`?intent=${intent}`}
      aria-label={label}
      submitLabel={submitLabel}
      onSaved={() => toast.push({ kind: 'success', message: 'resources.channel.member_saved' })}
    />
  )
}
