import * as v from 'valibot'
import { UrlWithDefaultScheme } from './common'
import { defineEntity } from './entity'
import type { FileKind } from './file'

/** Media kinds (seed 000 §3 IMAGE, VIDEO, AUDIO, OTHER, DOCUMENT); an asset's type defaults to video (§9). */
export const ASSET_TYPES = ['video', 'image', 'audio', 'document', 'other'] as const satisfies readonly FileKind[]
/** Who hosts the media: a file uploaded here, or a link to a video site or any address. */
export const ASSET_PROVIDERS = ['upload', 'youtube', 'vimeo', 'link'] as const
/** How it is delivered: the file over the CDN, an HLS stream playlist, or a video site's embedded player. */
export const ASSET_INFRAS = ['cdn', 'hls', 'embed'] as const

export type Asset = {
  id: string
  realm: string
  name: string
  type: (typeof ASSET_TYPES)[number]
  provider: (typeof ASSET_PROVIDERS)[number]
  infra: (typeof ASSET_INFRAS)[number]
  /** The stored file (provider `upload`). */
  file_id: string | null
  /** The address to copy: the file's cdn_full_url, or the link. */
  url: string
  size: number | null
  content_type: string
  created_at: string
  updated_at: string
  updated_by: string
}

const fields = {
  name: v.pipe(v.string('validation.required'), v.trim(), v.minLength(2, 'validation.min_length'), v.maxLength(160, 'validation.max_length')),
  type: v.picklist(ASSET_TYPES, 'validation.picklist'),
  provider: v.picklist(ASSET_PROVIDERS, 'validation.picklist'),
  infra: v.picklist(ASSET_INFRAS, 'validation.picklist'),
  file_id: v.pipe(v.string(), v.trim(), v.maxLength(64, 'validation.max_length')),
  url: UrlWithDefaultScheme,
}

/** POST /asset: an upload names its file (POST /mas/file id); a link gives its url. */
export const AssetCreate = v.object({
  name: fields.name,
  type: v.optional(fields.type, 'video'),
  provider: v.optional(fields.provider, 'upload'),
  infra: v.optional(fields.infra),
  file_id: v.optional(fields.file_id),
  url: v.optional(fields.url),
})
export const AssetUpdate = v.partial(v.object(fields))

/** A video link accepted from a video site with an 11-character id (seed 000 §5), or a Vimeo numeric id. */
export function videoId(provider: 'youtube' | 'vimeo', url: string): string | null {
  try {
    const u = new URL(url)
    const host = u.hostname.replace(/^(www|m)\./, '')
    if (provider === 'youtube') {
      const id =
        host === 'youtu.be' ? u.pathname.slice(1) : host === 'youtube.com' ? (u.searchParams.get('v') ?? u.pathname.replace(/^\/(embed|shorts)\//, '')) : ''
      return /^[\w-]{11}$/.test(id) ? id : null
    }
    return host === 'vimeo.com' && /^\/\d{6,12}$/.test(u.pathname) ? u.pathname.slice(1) : null
  } catch {
    return null
  }
}

export const assetEntity = defineEntity<Asset>({
  name: 'asset',
  table: 'asset',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'text', list: true },
    realm: { type: 'text' },
    name: { type: 'text', search: true, sort: true, list: true, filter: 'like' },
    type: { type: 'text', sort: true, list: true, filter: 'eq' },
    provider: { type: 'text', sort: true, list: true, filter: 'eq' },
    infra: { type: 'text', list: true, filter: 'eq' },
    file_id: { type: 'text' },
    url: { type: 'text', search: true, list: true },
    size: { type: 'int', sort: true, list: true, nullable: true },
    content_type: { type: 'text', list: true },
    created_at: { type: 'text', sort: true, list: true, filter: 'date' },
    updated_at: { type: 'text', sort: true, list: true },
    updated_by: { type: 'text', list: true },
  },
  defaultOrder: '-created_at',
})
