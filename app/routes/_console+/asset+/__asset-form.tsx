import { useFormMetadata, useField } from '@conform-to/react'
import { useActionData } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { KitForm, SelectInput, TextInput } from '~/components/form/kit'
import { CopyButton } from '~/components/ui/copy-button'
import { FileUpload } from '~/components/ui/file-upload'
import { Icon } from '~/components/ui/icon'
import { errorText } from '~/lib/error-text'
import { DEFAULT_TIME_ZONE, decodeError } from '~/lib/form-kit'
import { fileSize } from '~/lists/asset'
import { ASSET_PROVIDERS, ASSET_TYPES, type Asset } from '#shared/schemas/asset'
import { FILE_TYPES } from '#shared/schemas/file'
import { AssetCreateForm, AssetUpdateForm, assetFields, prepareAsset } from './__asset-fields'

/**
 * An asset (seed 000 §9: type video by default) on the form kit: an uploaded file (with a progress bar) or a link for
 * its provider; the link can be copied as soon as it exists. The action sends an edit's changes only.
 */
export function AssetForm({ asset, canUpload }: { asset: Asset | null; canUpload: boolean }) {
  const { t } = useTranslation()
  const start = {
    name: asset?.name ?? '',
    type: asset?.type ?? 'video',
    provider: asset?.provider ?? (canUpload ? 'upload' : 'link'),
    infra: asset?.infra ?? 'cdn',
    file_id: asset?.file_id ?? '',
    url: asset?.provider === 'upload' ? '' : (asset?.url ?? ''),
  }
  return (
    <KitForm
      schema={asset ? AssetUpdateForm : AssetCreateForm}
      fields={assetFields}
      prepare={prepareAsset}
      lastResult={useActionData()}
      defaultValue={start}
      timeZone={DEFAULT_TIME_ZONE}
      className="card narrow-form"
      submitLabel={t('resources.asset.save')}
      protect
    >
      <AssetFields asset={asset} canUpload={canUpload} start={start} />
    </KitForm>
  )
}

function AssetFields({ asset, canUpload, start }: { asset: Asset | null; canUpload: boolean; start: { provider: Asset['provider']; type: Asset['type'] } }) {
  const { t } = useTranslation()
  const form = useFormMetadata()
  const [fileMeta] = useField<string>('file_id')
  const [provider, setProvider] = useState(start.provider)
  const [uploaded, setUploaded] = useState<{ id: string; url: string; name: string; size: number; kind: Asset['type'] } | null>(
    asset?.file_id ? { id: asset.file_id, url: asset.url, name: asset.name, size: asset.size ?? 0, kind: asset.type } : null,
  )
  const [url, setUrl] = useState(asset && asset.provider !== 'upload' ? asset.url : '')
  const upload = provider === 'upload'
  // A file's id arrives in the hidden input with the next render: only then is its "choose a file" error checked again.
  const uploadedId = uploaded?.id
  const validate = useRef(form.validate)
  validate.current = form.validate
  useEffect(() => {
    if (uploadedId) validate.current({ name: 'file_id' })
  }, [uploadedId])
  const link = upload ? uploaded?.url : url
  const fileError = fileMeta.errors?.[0]
  const label = (k: string) => t(`resources.asset.fields.${k}`)
  return (
    <>
      <TextInput name="name" label={label('name')} required />
      <div onChange={(e) => setProvider((e.target as HTMLSelectElement).value as Asset['provider'])}>
        <SelectInput
          name="provider"
          label={label('provider')}
          hint={t('resources.asset.hints.provider')}
          options={ASSET_PROVIDERS.filter((p) => p !== 'upload' || canUpload || upload).map((p) => ({ value: p, label: t(`resources.asset.provider.${p}`) }))}
        />
      </div>
      {upload ? (
        <>
          <input type="hidden" name="file_id" value={uploaded?.id ?? ''} id={fileMeta.id} />
          {/* The type of an upload is its file's kind. */}
          <input type="hidden" name="type" value={uploaded?.kind ?? start.type} />
          <FileUpload
            label={label('file')}
            options={{ accept: Object.keys(FILE_TYPES) }}
            hint={t('resources.asset.hints.file')}
            onUploaded={(file) => {
              setUploaded({ id: file.id, url: file.cdn_full_url, name: file.name, size: file.size, kind: file.kind })
              const name = document.querySelector<HTMLInputElement>(`[name="name"]`)
              if (name && !name.value) form.update({ name: 'name', value: file.name.replace(/\.[^.]+$/, '') })
            }}
          />
          {fileError ? (
            <p className="error" id={fileMeta.errorId}>
              {errorText(t, decodeError(fileError))}
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
          <div onInput={(e) => setUrl((e.target as HTMLInputElement).value)}>
            <TextInput name="url" label={label('url')} hint={t(`resources.asset.hints.url_${provider}`)} autoComplete="off" required />
          </div>
          {provider === 'link' ? (
            <SelectInput
              name="infra"
              label={label('infra')}
              options={[
                { value: 'cdn', label: t('resources.asset.infra.cdn') },
                { value: 'hls', label: t('resources.asset.infra.hls') },
              ]}
            />
          ) : null}
        </>
      )}
      {upload ? (
        <div className="field">
          <label htmlFor="asset-type-of-file">{label('type')}</label>
          <select id="asset-type-of-file" className="input" disabled value={uploaded?.kind ?? start.type} aria-describedby="asset-type-of-file-hint">
            {ASSET_TYPES.map((x) => (
              <option key={x} value={x}>
                {t(`resources.asset.type.${x}`)}
              </option>
            ))}
          </select>
          <p className="hint" id="asset-type-of-file-hint">
            {t('resources.asset.hints.type_upload')}
          </p>
        </div>
      ) : (
        <SelectInput name="type" label={label('type')} options={ASSET_TYPES.map((x) => ({ value: x, label: t(`resources.asset.type.${x}`) }))} />
      )}
      {link ? (
        <div className="field">
          <span className="field-label">{label('url')}</span>
          <div className="input-group">
            <input className="input code" readOnly value={link} aria-label={label('url')} onFocus={(e) => e.currentTarget.select()} />
            <CopyButton text={link} label={t('resources.asset.copy_link')} />
          </div>
        </div>
      ) : null}
    </>
  )
}
