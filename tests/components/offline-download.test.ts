import { describe, expect, it } from 'vitest'
import { pageAssets, pageImages, questionMedia } from '~/lib/offline/download'

/** What a download stores of a page (issue 17, app/lib/offline/download.ts): its hashed assets, images and question media. */
describe('the files of an offline download', () => {
  const origin = 'https://demo.example.com'
  const html = `<!doctype html><html><head>
    <link rel="modulepreload" href="/assets/root-AbC.js"/><link rel="stylesheet" href="/assets/app-x1.css"/>
    <link rel="preload" as="fetch" href="/assets/pt-BR-mobile-tms-9f.json" data-catalogue="mobile-tms"/>
    <link rel="icon" href="/favicon.svg"/><link rel="stylesheet" href="https://cdn.other.com/assets/x.css"/>
    </head><body><img alt="logo" src="https://files.other.com/logo.png?v=1&amp;s=2"/><img src="/files/q.png" alt=""/>
    <script type="module">import("/assets/entry.client-Q.js"); window.__m = {"a":"/assets/route-Z.js"}</script></body></html>`

  it('takes the same-origin hashed assets the page names, once each, and nothing else', () => {
    expect(pageAssets(html, origin).sort()).toEqual(
      ['/assets/app-x1.css', '/assets/entry.client-Q.js', '/assets/pt-BR-mobile-tms-9f.json', '/assets/root-AbC.js', '/assets/route-Z.js'].map(
        (p) => origin + p,
      ),
    )
  })

  it('takes the page images of any web origin, entities decoded', () => {
    expect(pageImages(html, origin)).toEqual(['https://files.other.com/logo.png?v=1&s=2', `${origin}/files/q.png`])
  })

  it('takes the questions’ and options’ media, not videos nor text blocks', () => {
    const questions = [
      { media_type: 'img', media_url: '/files/a.png', options: [{ media_type: 'audio', media_url: 'https://x.org/s.mp3' }] },
      { media_type: 'video', media_url: 'https://www.youtube.com/watch?v=abcdefghijk' },
      { media_type: 'text', media_url: '' },
      { media_type: 'img', media_url: 'javascript:alert(1)' },
    ]
    expect(questionMedia(questions, origin).sort()).toEqual([`${origin}/files/a.png`, 'https://x.org/s.mp3'])
  })
})
