import { useField } from '@conform-to/react'
import { useState } from 'react'
import * as v from 'valibot'
import { useTranslation } from 'react-i18next'
import { CheckboxInput, Fieldset, KitForm, ListField, NumberInput, SelectInput, TextArea, TextInput, shownNumber } from '~/components/form/kit'
import { FileUpload } from '~/components/ui/file-upload'
import { errorText } from '~/lib/error-text'
import { decodeError } from '~/lib/form-kit'
import {
  AVATAR_SIZE,
  BANNER_SIZE,
  CHANNEL_LANGUAGES,
  CHANNEL_TEMPLATES,
  ChannelModes,
  DjinniSettings,
  DJINNI_INTERACTIONS,
  DJINNI_STATES,
  MEMBER_PERMISSIONS,
  NUMBER_MODES,
  SWITCH_MODES,
  type Channel,
} from '#shared/schemas/channel'
import { channelSchema, prepareChannel, REMOVE_IMAGE } from './__channel'

export interface ChannelFormProps {
  mode: 'create' | 'edit'
  channel: Channel | null
  categories: { value: string; label: string }[]
  /** The signed-in user: the owner a new channel starts with. */
  me: string
  timeZone: string
  lastResult: unknown
}

/** Sections of the channel screen (seed 002 §2 "Channel screens"), linked from the top of the form. */
const SECTIONS = ['config', 'welcome', 'members', 'extra', 'djinni', 'modes'] as const

/** The form's starting values: the channel as the API answers it, with extra settings as key/value rows. */
const DECIMALS = ['tempo', 'pitch', 'rate'] as const

function startValues(channel: Channel | null, me: string, locale: string): Record<string, unknown> {
  // The Djinni's decimals as typed in the page's language (the schema reads `0,4` and `0.4` alike).
  const djinni = (d: Record<string, unknown>) => ({ ...d, ...Object.fromEntries(DECIMALS.map((k) => [k, shownNumber(d[k], locale)])) })
  if (!channel)
    return {
      members: [{ nick: me, permission: 'owner' }],
      welcome: [],
      extra_list: [],
      modes: v.getDefaults(ChannelModes),
      djinni: djinni(v.getDefaults(DjinniSettings)),
    }
  return {
    ...channel,
    djinni: djinni(channel.djinni),
    category_id: channel.category_id ?? '',
    extra_list: Object.entries(channel.extra).map(([key, value]) => ({ key, value })),
    password: '',
  }
}

/** The channel's create and edit form (config, categories, welcome messages, members on create, extra settings, Djinni, modes). */
export function ChannelForm({ mode, channel, categories, me, timeZone, lastResult }: ChannelFormProps) {
  const { t, i18n } = useTranslation()
  const schema = channelSchema(mode)
  const labels = {
    name: t('resources.channel.fields.name'),
    category_id: t('resources.channel.fields.category_id'),
    welcome: t('resources.channel.sections.welcome'),
    members: t('resources.channel.sections.members'),
    extra: t('resources.channel.sections.extra'),
    extra_list: t('resources.channel.sections.extra'),
    modes: t('resources.channel.sections.modes'),
    djinni: t('resources.channel.sections.djinni'),
    password: t('resources.channel.fields.password'),
    banner_file_id: t('resources.channel.fields.banner'),
    avatar_file_id: t('resources.channel.fields.avatar'),
    ...Object.fromEntries(SWITCH_MODES.map((m) => [`modes.${m}`, t(`resources.channel.modes.${m}`)])),
    ...Object.fromEntries(Object.keys(NUMBER_MODES).map((m) => [`modes.${m}`, t(`resources.channel.modes.${m}`)])),
    ...Object.fromEntries(
      ['tempo', 'pitch', 'rate', 'voice_type', 'avatar', 'speaking_video', 'idle_video', 'context', 'style'].map((f) => [
        `djinni.${f}`,
        t(`resources.channel.djinni.${f}`),
      ]),
    ),
  }
  const languages = CHANNEL_LANGUAGES.map((l) => ({ value: l, label: t(`resources.channel.languages.${l}`) }))
  const permissions = MEMBER_PERMISSIONS.map((p) => ({ value: p, label: t(`resources.channel.permissions.${p}`) }))
  return (
    <KitForm
      id="channel-form"
      schema={schema}
      prepare={prepareChannel(mode)}
      lastResult={lastResult}
      defaultValue={startValues(channel, me, i18n.language)}
      timeZone={timeZone}
      labels={labels}
      protect
      className="channel-form"
      aria-label={t(mode === 'create' ? 'pages.channel.create' : 'pages.channel.edit')}
    >
      <nav className="link-tabs" aria-label={t('resources.channel.sections.title')}>
        {SECTIONS.filter((s) => s !== 'members' || mode === 'create').map((s) => (
          <a key={s} href={`#channel-${s}`} className="link-tab">
            {t(`resources.channel.sections.${s}`)}
          </a>
        ))}
        {mode === 'edit' ? (
          <a href="#channel-member-list" className="link-tab">
            {t('resources.channel.sections.members')}
          </a>
        ) : null}
      </nav>

      <section className="card" id="channel-config" aria-labelledby="channel-config-title">
        <h2 id="channel-config-title">{t('resources.channel.sections.config')}</h2>
        <TextInput name="name" label={t('resources.channel.fields.name')} required hint={t('resources.channel.hints.name')} />
        <SelectInput name="category_id" label={t('resources.channel.fields.category_id')} options={categories} placeholder={t('tms.form.none')} />
        {categories.length === 0 ? <p className="hint">{t('resources.channel.hints.no_categories')}</p> : null}
        <ChannelImage name="banner_file_id" url={channel?.banner_url ?? ''} kind="banner" />
        <ChannelImage name="avatar_file_id" url={channel?.avatar_url ?? ''} kind="avatar" />
      </section>

      <section className="card" id="channel-welcome" aria-labelledby="channel-welcome-title">
        <h2 id="channel-welcome-title">{t('resources.channel.sections.welcome')}</h2>
        <ListField
          name="welcome"
          label={t('resources.channel.fields.welcome')}
          addLabel={t('resources.channel.add_welcome')}
          newItem={{ language: 'pt-BR', message: '' }}
        >
          {(item) => (
            <div className="field-grid">
              <SelectInput name={`${item}.language`} label={t('resources.channel.fields.language')} options={languages} />
              <TextArea name={`${item}.message`} label={t('resources.channel.fields.message')} required />
            </div>
          )}
        </ListField>
      </section>

      {mode === 'create' ? (
        <section className="card" id="channel-members" aria-labelledby="channel-members-title">
          <h2 id="channel-members-title">{t('resources.channel.sections.members')}</h2>
          <p className="hint">{t('resources.channel.hints.members')}</p>
          <ListField
            name="members"
            label={t('resources.channel.fields.members')}
            addLabel={t('resources.channel.add_member')}
            newItem={{ nick: '', permission: 'operator' }}
          >
            {(item) => (
              <div className="field-grid">
                <TextInput name={`${item}.nick`} label={t('resources.channel.fields.nick')} required autoComplete="off" />
                <SelectInput name={`${item}.permission`} label={t('resources.channel.fields.permission')} options={permissions} />
              </div>
            )}
          </ListField>
        </section>
      ) : null}

      <section className="card" id="channel-extra" aria-labelledby="channel-extra-title">
        <h2 id="channel-extra-title">{t('resources.channel.sections.extra')}</h2>
        <ListField name="extra_list" label={t('resources.channel.fields.extra')} addLabel={t('resources.channel.add_extra')} newItem={{ key: '', value: '' }}>
          {(item) => (
            <div className="field-grid">
              <TextInput name={`${item}.key`} label={t('resources.channel.fields.extra_key')} required hint={t('resources.channel.hints.extra_key')} />
              <TextInput name={`${item}.value`} label={t('resources.channel.fields.extra_value')} />
            </div>
          )}
        </ListField>
      </section>

      <section className="card" id="channel-djinni" aria-labelledby="channel-djinni-title">
        <h2 id="channel-djinni-title">{t('resources.channel.sections.djinni')}</h2>
        <CheckboxInput name="modes.my_djinni" label={t('resources.channel.modes.my_djinni')} />
        <Fieldset legend={t('resources.channel.djinni.title')}>
          <div className="field-grid">
            <SelectInput
              name="djinni.interaction"
              label={t('resources.channel.djinni.interaction')}
              options={DJINNI_INTERACTIONS.map((i) => ({ value: i, label: t(`resources.channel.djinni.interactions.${i}`) }))}
            />
            <NumberInput
              name="djinni.voice_type"
              label={t('resources.channel.djinni.voice_type')}
              decimal={false}
              hint={t('resources.channel.djinni.hints.voice_type')}
            />
            <SelectInput
              name="djinni.initial_state"
              label={t('resources.channel.djinni.initial_state')}
              options={DJINNI_STATES.map((s) => ({ value: s, label: t(`resources.channel.djinni.states.${s}`) }))}
            />
            <SelectInput name="djinni.language" label={t('resources.channel.djinni.language')} options={languages} />
            <TextInput name="djinni.avatar" label={t('resources.channel.djinni.avatar')} type="url" />
            <TextInput name="djinni.speaking_video" label={t('resources.channel.djinni.speaking_video')} type="url" />
            <TextInput name="djinni.idle_video" label={t('resources.channel.djinni.idle_video')} type="url" />
            <TextInput name="djinni.style" label={t('resources.channel.djinni.style')} />
            <NumberInput name="djinni.tempo" label={t('resources.channel.djinni.tempo')} hint={t('resources.channel.djinni.hints.tempo')} />
            <NumberInput name="djinni.pitch" label={t('resources.channel.djinni.pitch')} hint={t('resources.channel.djinni.hints.pitch')} />
            <NumberInput name="djinni.rate" label={t('resources.channel.djinni.rate')} hint={t('resources.channel.djinni.hints.rate')} />
          </div>
          <TextArea name="djinni.context" label={t('resources.channel.djinni.context')} rows={4} />
        </Fieldset>
      </section>

      <section className="card" id="channel-modes" aria-labelledby="channel-modes-title">
        <h2 id="channel-modes-title">{t('resources.channel.sections.modes')}</h2>
        <div className="switch-grid">
          {SWITCH_MODES.filter((m) => m !== 'my_djinni').map((m) => (
            <CheckboxInput key={m} name={`modes.${m}`} label={t(`resources.channel.modes.${m}`)} />
          ))}
        </div>
        <div className="field-grid">
          {Object.entries(NUMBER_MODES).map(([m, n]) => (
            <NumberInput
              key={m}
              name={`modes.${m}`}
              label={t(`resources.channel.modes.${m}`)}
              decimal={false}
              hint={t('resources.channel.hints.number_mode', { min: n.min, max: n.max })}
            />
          ))}
          <SelectInput
            name="modes.template"
            label={t('resources.channel.modes.template')}
            options={CHANNEL_TEMPLATES.map((x) => ({ value: x, label: t(`resources.channel.templates.${x}`) }))}
          />
        </div>
        <Fieldset legend={t('resources.channel.fields.password')}>
          <p className="hint">{t(channel?.has_password ? 'resources.channel.hints.password_set' : 'resources.channel.hints.password_none')}</p>
          <TextInput name="password" type="password" label={t('resources.channel.fields.new_password')} autoComplete="new-password" />
          {channel?.has_password ? <CheckboxInput name="password_remove" label={t('resources.channel.fields.password_remove')} /> : null}
        </Fieldset>
      </section>
    </KitForm>
  )
}

/** The banner or avatar: the current image, an upload (dimensions checked by the upload and again on save), removal. */
function ChannelImage({ name, url, kind }: { name: 'banner_file_id' | 'avatar_file_id'; url: string; kind: 'banner' | 'avatar' }) {
  const { t } = useTranslation()
  const [meta] = useField<string>(name)
  const [shown, setShown] = useState(url)
  const [value, setValue] = useState<string | undefined>(undefined)
  const size = kind === 'banner' ? BANNER_SIZE : AVATAR_SIZE
  const error = meta.errors?.[0]
  return (
    <div className={`field channel-image channel-${kind}`}>
      {shown ? <img src={shown} alt={t(`resources.channel.${kind}_alt`)} className={kind === 'banner' ? 'banner-preview' : 'avatar-large'} /> : null}
      <FileUpload
        label={t(`resources.channel.fields.${kind}`)}
        options={{ accept: ['png', 'jpg', 'jpeg', 'webp'], ...size, persist: true }}
        hint={t(`resources.channel.hints.${kind}`, size)}
        onUploaded={(file) => {
          setShown(file.cdn_full_url)
          setValue(file.id)
        }}
      />
      {value !== undefined ? <input type="hidden" name={name} value={value} /> : null}
      {shown ? (
        <button
          type="button"
          className="btn"
          onClick={() => {
            setShown('')
            setValue(REMOVE_IMAGE)
          }}
        >
          {t(`resources.channel.remove_${kind}`)}
        </button>
      ) : null}
      {error ? (
        <p className="error" id={meta.errorId} role="alert">
          {errorText(t, decodeError(error))}
        </p>
      ) : null}
    </div>
  )
}
