import { Form, useFetcher } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { KitForm, SelectInput, TextInput } from '~/components/form/kit'
import { useToast } from '~/components/ui/toast'
import { ChannelMemberInput, MEMBER_PERMISSIONS, type ChannelMember } from '#shared/schemas/channel'
import { ChangeMember, MemberRef, OwnerRef } from './__channel'

/**
 * The channel's member list (seed 002 "member list"): search by nick or name, add a user with a permission, change
 * a permission, remove a member, and hand ownership over. Each is a small kit form posting to the edit route's
 * action with its intent; the API keeps exactly one owner and answers its errors on the form.
 */
export function ChannelMembers({ members, q, owner, timeZone }: { members: ChannelMember[]; q: string; owner: string; timeZone: string }) {
  const { t } = useTranslation()
  const toast = useToast()
  const permissions = MEMBER_PERMISSIONS.map((p) => ({ value: p, label: t(`resources.channel.permissions.${p}`) }))
  const add = useFetcher({ key: 'channel-member-add' })
  const transfer = useFetcher({ key: 'channel-owner' })
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
              <MemberRow
                key={`${m.nick}:${m.permission}`}
                member={m}
                permissions={permissions}
                timeZone={timeZone}
                onDone={() => toast.push({ kind: 'success', message: 'resources.channel.member_saved' })}
              />
            ))}
          </tbody>
        </table>
      )}
      <div className="field-grid">
        <KitForm
          id="channel-member-add"
          schema={ChannelMemberInput}
          fetcher={add as never}
          lastResult={add.data}
          action="?intent=add_member"
          defaultValue={{ nick: '', permission: 'operator' }}
          timeZone={timeZone}
          className="card simple-form"
          aria-label={t('resources.channel.add_member')}
          submitLabel={t('resources.channel.add_member')}
          submitIcon="plus"
          labels={{ nick: t('resources.channel.fields.nick'), permission: t('resources.channel.fields.permission') }}
          onSaved={() => toast.push({ kind: 'success', message: 'resources.channel.member_saved' })}
        >
          <TextInput name="nick" label={t('resources.channel.fields.nick')} required autoComplete="off" />
          <SelectInput name="permission" label={t('resources.channel.fields.permission')} options={permissions.filter((p) => p.value !== 'owner')} />
        </KitForm>
        <KitForm
          id="channel-owner"
          schema={OwnerRef}
          fetcher={transfer as never}
          lastResult={transfer.data}
          action="?intent=owner"
          defaultValue={{ nick: '', previous: 'admin' }}
          timeZone={timeZone}
          className="card simple-form"
          aria-label={t('resources.channel.transfer')}
          submitLabel={t('resources.channel.transfer')}
          submitIcon="swap"
          labels={{ nick: t('resources.channel.fields.new_owner'), previous: t('resources.channel.fields.previous_owner') }}
          onSaved={() => toast.push({ kind: 'success', message: 'resources.channel.member_saved' })}
        >
          <TextInput name="nick" label={t('resources.channel.fields.new_owner')} required autoComplete="off" />
          <SelectInput
            name="previous"
            label={t('resources.channel.fields.previous_owner')}
            options={permissions.filter((p) => p.value !== 'owner' && p.value !== 'banned')}
          />
        </KitForm>
      </div>
    </section>
  )
}

function MemberRow({
  member,
  permissions,
  timeZone,
  onDone,
}: {
  member: ChannelMember
  permissions: { value: string; label: string }[]
  timeZone: string
  onDone: () => void
}) {
  const { t } = useTranslation()
  const change = useFetcher({ key: `channel-member-${member.nick}` })
  const remove = useFetcher({ key: `channel-member-remove-${member.nick}` })
  const isOwner = member.permission === 'owner'
  return (
    <tr>
      <td>{member.nick}</td>
      <td>{member.name}</td>
      <td>
        {isOwner ? (
          <strong>{t('resources.channel.permissions.owner')}</strong>
        ) : (
          <KitForm
            id={`member-${member.nick}`}
            schema={ChangeMember}
            fetcher={change as never}
            lastResult={change.data}
            action="?intent=change_member"
            defaultValue={{ nick: member.nick, permission: member.permission }}
            timeZone={timeZone}
            className="inline-form"
            aria-label={t('resources.channel.change_permission', { nick: member.nick })}
            submitLabel={t('resources.channel.change')}
            labels={{ permission: t('resources.channel.fields.permission') }}
            onSaved={onDone}
          >
            <input type="hidden" name="nick" value={member.nick} />
            <SelectInput
              name="permission"
              label={t('resources.channel.permission_of', { nick: member.nick })}
              options={permissions.filter((p) => p.value !== 'owner')}
            />
          </KitForm>
        )}
      </td>
      <td>
        {isOwner ? null : (
          <KitForm
            id={`member-remove-${member.nick}`}
            schema={MemberRef}
            fetcher={remove as never}
            lastResult={remove.data}
            action="?intent=remove_member"
            timeZone={timeZone}
            className="inline-form"
            aria-label={t('resources.channel.remove_member', { nick: member.nick })}
            submitLabel={t('resources.channel.remove')}
            submitIcon="trash"
            onSaved={onDone}
          >
            <input type="hidden" name="nick" value={member.nick} />
          </KitForm>
        )}
      </td>
    </tr>
  )
}
