import { useFetcher } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from '~/i18n/react'
import { CopyButton } from '~/components/ui/copy-button'
import { FileUpload } from '~/components/ui/file-upload'
import { SelectField, TextField } from '~/components/ui/fields'
import { Icon } from '~/components/ui/icon'
import { changedValues, useLiveValidation } from '~/lib/form'
import { jsonBody } from '~/lib/json'
import { useUnsavedChanges } from '~/lib/use-unsaved-changes'
import { fileSize } from '~/lists/asset'
import { ASSET_PROVIDERS, ASSET_TYPES, AssetCreate, AssetUpdate, type Asset } from '#shared/schemas/asset'
import type { ErrorItem } from '#shared/schemas/error'
import { FILE_TYPES } from '#shared/schemas/file'

type Values = { name: string; type: Asset['type']; provider: Asset['provider']; infra: Asset['infra']; file_id: string; url: string }

/**
 * An asset (seed 000 §9: type video by default): an uploaded file (with a progress bar) or a link for its provider;
 * the link can be copied as soon as it exists.
 */
export function AssetForm({ asset, canUpload }: { asset: Asset | null; canUpload: boolean }) {
  const { t } = useTranslation()
  const fetcher = useFetcher<{ errors: ErrorItem[] }>({ key: 'asset-form' })
  const initial: Values = {
    name: asset?.name ?? '',
    type: asset?.type ?? 'video',
    provider: asset?.provider ?? (canUpload ? 'upload' : 'link'),
    infra: asset?.infra ?? 'cdn',
    file_id: asset?.file_id ?? '',
    url: asset?.url ?? '',
  }
  const [values, setValues] = useState<Values>(initial)
  const [uploaded, setUploaded] = useState<{ url: string; name: string; size: number } | null>(
    asset?.file_id ? { url: asset.url, name: asset.name, size: asset.size ?? 0 } : null,
  )
  const upload = values.provider === 'upload'
  // An upload sends its file; a link its url (and infra when it is a plain link).
  const { file_id, url, infra, ...rest } = values
  const full = upload ? { ...rest, file_id } : { ...rest, url, ...(values.provider === 'link' ? { infra } : {}) }
  const body = asset ? changedValues(initial, full) : full
  const form = useLiveValidation(
    asset ? AssetUpdate : AssetCreate,
    body,
    fetcher.data?.errors,
    upload && !file_id ? { file_id: 'validation.file.required' } : {},
  )
  const saving = fetcher.state !== 'idle'
  const guard = useUnsavedChanges(!saving && Object.keys(changedValues(initial, values)).length > 0)
  const set =
    <K extends keyof Values>(k: K) =>
    (v: Values[K]) =>
      setValues((x) => ({ ...x, [k]: v }))
  const common = (k: keyof Values) => ({ label: t(`resources.asset.fields.${k}`), error: form.errorOf(k), onBlur: () => form.touch(k) })
  const link = upload ? uploaded?.url : values.url
  return (
    <form
      className="card narrow-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        if (form.attempt()) fetcher.submit(jsonBody(body), { method: 'post', encType: 'application/json' })
      }}
    >
      <TextField {...common('name')} value={values.name} onChange={set('name')} required />
      <SelectField
        {...common('provider')}
        value={values.provider}
        onChange={(p) => set('provider')(p as Values['provider'])}
        options={ASSET_PROVIDERS.filter((p) => p !== 'upload' || canUpload || upload).map((p) => ({ value: p, label: t(`resources.asset.provider.${p}`) }))}
        hint={t('resources.asset.hints.provider')}
      />
      {upload ? (
        <>
          <FileUpload
            label={t('resources.asset.fields.file')}
            options={{ accept: Object.keys(FILE_TYPES) }}
            hint={t('resources.asset.hints.file')}
            onUploaded={(file) => {
              setUploaded({ url: file.cdn_full_url, name: file.name, size: file.size })
              setValues((x) => ({ ...x, file_id: file.id, type: file.kind, name: x.name || file.name.replace(/\.[^.]+$/, '') }))
              form.touch('file_id')
            }}
          />
          {form.errorOf('file_id') ? (
            <p className="error" role="alert">
              {t(form.errorOf('file_id') ?? '')}
            </p>
          ) : null}
          {uploaded ? (
            <p className="uploaded-file" role="status">
              <Icon name="file" /> {t('resources.asset.uploaded', { name: uploaded.name, size: fileSize(uploaded.size) })}
            </p>
          ) : null}
        </>
      ) : (
        <>
          <TextField
            {...common('url')}
            value={values.url}
            onChange={set('url')}
            hint={t(`resources.asset.hints.url_${values.provider}`)}
            autoComplete="off"
            required
          />
          {values.provider === 'link' ? (
            <SelectField
              {...common('infra')}
              value={values.infra}
              onChange={(i) => set('infra')(i as Values['infra'])}
              options={[
                { value: 'cdn', label: t('resources.asset.infra.cdn') },
                { value: 'hls', label: t('resources.asset.infra.hls') },
              ]}
            />
          ) : null}
        </>
      )}
      <SelectField
        {...common('type')}
        value={values.type}
        onChange={(x) => set('type')(x as Values['type'])}
        disabled={upload}
        hint={upload ? t('resources.asset.hints.type_upload') : undefined}
        options={ASSET_TYPES.map((x) => ({ value: x, label: t(`resources.asset.type.${x}`) }))}
      />
      {link ? (
        <div className="field">
          <span className="field-label">{t('resources.asset.fields.url')}</span>
          <div className="input-group">
            <input className="input code" readOnly value={link} aria-label={t('resources.asset.fields.url')} onFocus={(e) => e.currentTarget.select()} />
            <CopyButton text={link} label={t('resources.asset.copy_link')} />
          </div>
        </div>
      ) : null}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {saving ? <span className="spinner" aria-hidden="true" /> : <Icon name="check" />} {t('resources.asset.save')}
        </button>
      </div>
      {guard}
    </form>
  )
}
