import Image from '@tiptap/extension-image'
import Link from '@tiptap/extension-link'
import { EditorContent, useEditor, type Editor } from '@tiptap/react'
import StarterKit from '@tiptap/starter-kit'
import { useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Dialog } from '~/components/ui/dialog'
import { UploadError, UploadProgress, uploadErrorOf } from '~/components/ui/file-upload'
import { Icon, type IconName } from '~/components/ui/icon'
import { safeLinkUrl } from '#shared/rich-text'
import { uploadFile } from '~/lib/upload'
import type { ErrorItem } from '#shared/schemas/error'
import { Formula } from './formula.client'
import { FormulaDialog } from './formula-dialog'

const IMAGE_TYPES = ['png', 'jpg', 'jpeg', 'gif', 'webp']

export interface RichTextEditorProps {
  label: string
  value: string
  onChange: (html: string) => void
  error?: string | null
  /** Options and short texts: no lists or images. */
  minimal?: boolean
}

/**
 * Rich text field (@tiptap/react): bold, italic, lists, links, images uploaded to the realm's files, and formulas
 * (LaTeX, inline or block). The value is the editor's HTML; the server sanitizes it again before storing it.
 * A `.client` module: browser-only, loaded on demand by ./rich-text-editor.tsx (never in the Worker).
 */
export function RichTextEditor({ label, value, onChange, error, minimal = false }: RichTextEditorProps) {
  const { t } = useTranslation()
  const id = useId()
  const [formula, setFormula] = useState<{ latex: string; display: 'inline' | 'block' } | null>(null)
  const [linking, setLinking] = useState<string | null>(null)
  const [upload, setUpload] = useState<{ progress: number } | null>(null)
  const [uploadError, setUploadError] = useState<ErrorItem | null>(null)
  const fileInput = useRef<HTMLInputElement>(null)
  const editor = useEditor({
    // Rendered in the browser only: the server shows the read-only placeholder below, so hydration matches.
    immediatelyRender: false,
    extensions: [
      StarterKit.configure({ heading: { levels: [2, 3] }, codeBlock: false, horizontalRule: false }),
      Link.configure({
        openOnClick: false,
        autolink: true,
        protocols: ['http', 'https', 'mailto'],
        HTMLAttributes: { rel: 'noopener noreferrer nofollow', target: '_blank' },
      }),
      Image.configure({ inline: false }),
      Formula,
    ],
    content: value,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': `${id}-label`,
        ...(error ? { 'aria-invalid': 'true', 'aria-describedby': `${id}-error` } : {}),
        class: 'rich-input input',
      },
    },
    onUpdate: ({ editor: e }) => onChange(e.getHTML()),
  })

  async function onFile(files: FileList | null) {
    const file = files?.[0]
    if (!file || !editor) return
    setUploadError(null)
    setUpload({ progress: 0 })
    try {
      const stored = await uploadFile(file, { accept: IMAGE_TYPES, persist: true }, (progress) => setUpload({ progress }))
      editor.chain().focus().setImage({ src: stored.cdn_full_url, alt: file.name }).run()
    } catch (err) {
      setUploadError(uploadErrorOf(err))
    } finally {
      setUpload(null)
      if (fileInput.current) fileInput.current.value = ''
    }
  }

  const openFormula = () => {
    if (!editor) return
    const current = editor.isActive('formula') ? (editor.getAttributes('formula') as { latex: string; display: 'inline' | 'block' }) : null
    setFormula(current ?? { latex: '', display: 'inline' })
  }
  const saveFormula = (f: { latex: string; display: 'inline' | 'block' }) => {
    if (editor?.isActive('formula')) editor.chain().focus().updateAttributes('formula', f).run()
    else editor?.chain().focus().insertContent({ type: 'formula', attrs: f }).run()
    setFormula(null)
  }

  return (
    <div className={`field rich-field${error ? ' field-invalid' : ''}`}>
      <span className="field-label" id={`${id}-label`}>
        {label}
      </span>
      <div className="rich-toolbar" role="toolbar" aria-label={t('richtext.toolbar', { field: label })}>
        <Tool editor={editor} icon="bold" label={t('richtext.bold')} active={editor?.isActive('bold')} run={(e) => e.chain().focus().toggleBold().run()} />
        <Tool
          editor={editor}
          icon="italic"
          label={t('richtext.italic')}
          active={editor?.isActive('italic')}
          run={(e) => e.chain().focus().toggleItalic().run()}
        />
        {minimal ? null : (
          <>
            <Tool
              editor={editor}
              icon="listBullet"
              label={t('richtext.bullet_list')}
              active={editor?.isActive('bulletList')}
              run={(e) => e.chain().focus().toggleBulletList().run()}
            />
            <Tool
              editor={editor}
              icon="listOrdered"
              label={t('richtext.ordered_list')}
              active={editor?.isActive('orderedList')}
              run={(e) => e.chain().focus().toggleOrderedList().run()}
            />
          </>
        )}
        <Tool
          editor={editor}
          icon="link"
          label={t('richtext.link')}
          active={editor?.isActive('link')}
          run={(e) => setLinking((e.getAttributes('link').href as string | undefined) ?? 'https://')}
        />
        {minimal ? null : <Tool editor={editor} icon="image" label={t('richtext.image')} run={() => fileInput.current?.click()} />}
        <Tool editor={editor} icon="sigma" label={t('richtext.formula.insert')} active={editor?.isActive('formula')} run={openFormula} />
      </div>
      {editor ? <EditorContent editor={editor} /> : <div className="rich-input input" aria-busy="true" aria-labelledby={`${id}-label`} />}
      <input ref={fileInput} type="file" accept={IMAGE_TYPES.map((e) => `.${e}`).join(',')} hidden onChange={(e) => void onFile(e.currentTarget.files)} />
      {upload ? <UploadProgress progress={upload.progress} /> : null}
      {uploadError ? <UploadError error={uploadError} /> : null}
      {error ? (
        <p className="error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
      <FormulaDialog open={formula !== null} initial={formula ?? { latex: '', display: 'inline' }} onClose={() => setFormula(null)} onSave={saveFormula} />
      <LinkDialog
        href={linking}
        onClose={() => setLinking(null)}
        onSave={(href) => {
          const chain = editor?.chain().focus().extendMarkRange('link')
          if (href) chain?.setLink({ href }).run()
          else chain?.unsetLink().run()
          setLinking(null)
        }}
      />
    </div>
  )
}

function Tool({ editor, icon, label, active, run }: { editor: Editor | null; icon: IconName; label: string; active?: boolean; run: (e: Editor) => void }) {
  return (
    <button
      type="button"
      className="btn btn-icon"
      aria-pressed={active ?? undefined}
      disabled={!editor}
      title={label}
      onMouseDown={(e) => e.preventDefault()}
      onClick={() => editor && run(editor)}
    >
      <Icon name={icon} label={label} size={18} />
    </button>
  )
}

/** Link address: http, https or mailto only (anything else is refused here and stripped on the server). */
function LinkDialog({ href, onClose, onSave }: { href: string | null; onClose: () => void; onSave: (href: string) => void }) {
  const { t } = useTranslation()
  const id = useId()
  const [value, setValue] = useState('')
  const [shown, setShown] = useState<string | null>(null)
  if (href !== shown) {
    setShown(href)
    setValue(href ?? '')
  }
  const invalid = value.trim() !== '' && !safeLinkUrl(value.trim())
  return (
    <Dialog open={href !== null} onClose={onClose} title={t('richtext.link')} labelledBy={`${id}-title`}>
      <div className="field">
        <label htmlFor={`${id}-href`}>{t('richtext.link_address')}</label>
        <input
          id={`${id}-href`}
          className="input"
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          aria-invalid={invalid || undefined}
          aria-describedby={`${id}-hint`}
        />
        <p className={invalid ? 'error' : 'hint'} id={`${id}-hint`}>
          {t('richtext.link_hint')}
        </p>
      </div>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onClose}>
          {t('settings.cancel')}
        </button>
        <button type="button" className="btn btn-primary" disabled={invalid} onClick={() => onSave(value.trim())}>
          {t('richtext.link_save')}
        </button>
      </div>
    </Dialog>
  )
}
