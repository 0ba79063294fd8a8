import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  HISTORY_LIMIT,
  commit,
  createObject,
  deckForSave,
  duplicateSlide,
  emptySlide,
  loadDeck,
  moveItem,
  moveLayer,
  nudge,
  nudgeDelta,
  pasteObjects,
  redo,
  removeObjects,
  snapBox,
  startHistory,
  undo,
  updateObject,
  updateSlide,
} from '~/components/slide-editor/deck'
import { PAGE_HEIGHT, PAGE_WIDTH, SlideDeck, type Slide } from '#shared/schemas/lesson/slide'

/** A stored deck as the generator or an older editor may have written it: keys in any order, every kind of object. */
const stored = [
  {
    overlay: 'voice_image',
    id: 'cover',
    narration: 'Bem-vindos.',
    background: '#fafafa',
    objects: [
      {
        kind: 'text',
        id: 't1',
        name: 'Título',
        x: 100,
        y: 80.5,
        width: 3000,
        height: 400,
        rotation: 0,
        opacity: 1,
        hidden: false,
        locked: false,
        html: '<p><strong>Frações</strong></p>',
        font_size: 160,
        color: '#111111',
        align: 'center',
      },
      {
        id: 'f1',
        kind: 'formula',
        name: '',
        x: 1000,
        y: 900,
        width: 1200,
        height: 400,
        rotation: -12.5,
        opacity: 0.8,
        hidden: false,
        locked: true,
        latex: '\\frac{1}{2}',
        color: '#1f2937',
      },
      {
        id: 'i1',
        kind: 'image',
        name: 'Foto',
        x: -50,
        y: 2000,
        width: 600,
        height: 400,
        rotation: 0,
        opacity: 1,
        hidden: true,
        locked: false,
        src: '/files/a.png',
        alt: 'Uma pizza',
      },
      {
        id: 's1',
        kind: 'shape',
        name: 'Seta',
        x: 10,
        y: 10,
        width: 500,
        height: 1,
        rotation: 45,
        opacity: 1,
        hidden: false,
        locked: false,
        shape: 'arrow',
        fill: '',
        stroke: '#ff0000',
        stroke_width: 8,
      },
      { id: 'p1', kind: 'persona', name: 'Persona', x: 2700, y: 1500, width: 700, height: 900, rotation: 0, opacity: 1, hidden: false, locked: false },
    ],
  },
  { id: 'empty', background: '#ffffff', objects: [], narration: '', overlay: 'none' },
]

const json = (x: unknown) => JSON.stringify(x)

describe('round trip', () => {
  it('a deck loaded and saved without an edit is the same JSON (key order included)', () => {
    const deck = loadDeck(JSON.parse(json(stored)))
    expect(deck).not.toBeNull()
    expect(json(deck)).toBe(json(stored))
    // Edits that are undone give back the same JSON too.
    let h = startHistory(deck!)
    h = commit(
      h,
      updateSlide(h.present, 0, (s) => nudge(s, ['t1'], 10, 0)),
    )
    h = commit(
      h,
      updateSlide(h.present, 0, (s) => moveLayer(s, 't1', 'front')),
    )
    h = undo(undo(h))
    expect(json(h.present)).toBe(json(stored))
  })

  it('an edit changes the edited field only, in its place', () => {
    const deck = loadDeck(stored)!
    const next = updateSlide(deck, 0, (s) => updateObject(s, 't1', { x: 200 }))
    expect(json(next)).toBe(json(stored).replace('"x":100,', '"x":200,'))
    expect(deck).toEqual(loadDeck(stored)) // the input is not changed
  })

  it('every new object and slide validates against the contract', () => {
    const slide = emptySlide()
    const objects = [
      createObject({ kind: 'text' }, 'Texto 1'),
      createObject({ kind: 'formula', latex: 'x^2' }, 'Fórmula 1'),
      createObject({ kind: 'image', src: '/files/x.png', alt: '' }, 'Imagem 1'),
      ...(['rect', 'ellipse', 'line', 'arrow'] as const).map((shape) => createObject({ kind: 'shape', shape }, shape)),
      createObject({ kind: 'persona' }, 'Persona'),
    ]
    const deck = [{ ...slide, objects }]
    expect(v.safeParse(SlideDeck, deck).issues).toBeUndefined()
    expect(new Set(objects.map((o) => o.id)).size).toBe(objects.length)
    expect(loadDeck([{ ...slide, objects: [{ ...objects[0], width: 0 }] }])).toBeNull()
    // Unknown fields are dropped on load (the saved JSON is what the contract knows).
    expect(json(loadDeck([{ ...slide, extra: 1, objects: [] }]))).toBe(json([slide]))
  })
})

describe('saving (seed 001 §5)', () => {
  it('removes empty slides and keeps the ones with content', () => {
    const text = createObject({ kind: 'text' }, 'T')
    const blank: Slide = { ...emptySlide('blank'), objects: [text] } // an empty text box says nothing
    const hiddenOnly: Slide = { ...emptySlide('hidden'), objects: [{ ...createObject({ kind: 'shape', shape: 'rect' }, 'R'), hidden: true }] }
    const personaOnly: Slide = { ...emptySlide('persona'), objects: [createObject({ kind: 'persona' }, 'P')] }
    const result = deckForSave([...loadDeck(stored)!, blank, hiddenOnly, personaOnly])
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.removed).toBe(4)
    expect(result.deck.map((s) => s.id)).toEqual(['cover'])
    expect(json(result.deck)).toBe(json([stored[0]]))
  })

  it('refuses a presentation without a slide with content', () => {
    expect(deckForSave([emptySlide('a'), emptySlide('b')])).toEqual({ ok: false, cause: 'slides_missing_content', removed: 2 })
    expect(deckForSave([])).toEqual({ ok: false, cause: 'slides_missing_content', removed: 0 })
  })
})

describe('history', () => {
  it('undoes and redoes; a new edit drops the redo list', () => {
    let h = startHistory(1)
    h = commit(h, 2)
    h = commit(h, 3)
    h = undo(h)
    expect(h.present).toBe(2)
    h = redo(h)
    expect(h.present).toBe(3)
    h = undo(undo(h))
    expect(h.present).toBe(1)
    expect(undo(h)).toBe(h)
    h = commit(h, 9)
    expect(h.future).toEqual([])
    expect(redo(h)).toBe(h)
  })

  it('merges consecutive edits with the same tag (typing in one field) into one step', () => {
    let h = startHistory('')
    for (const text of ['a', 'ab', 'abc']) h = commit(h, text, 'name:t1')
    h = commit(h, 'abc!', 'x:t1')
    expect(undo(h).present).toBe('abc')
    expect(undo(undo(h)).present).toBe('')
  })

  it(`keeps at most ${HISTORY_LIMIT} steps`, () => {
    let h = startHistory(0)
    for (let i = 1; i <= HISTORY_LIMIT + 20; i++) h = commit(h, i)
    expect(h.past.length).toBe(HISTORY_LIMIT)
    expect(h.past[0]).toBe(20)
  })
})

describe('snapping', () => {
  const box = { x: 0, y: 0, width: 400, height: 200 }
  it('snaps the centre to the page centre lines, with the guides', () => {
    const r = snapBox({ ...box, x: PAGE_WIDTH / 2 - 200 + 12, y: PAGE_HEIGHT / 2 - 100 - 9 }, [])
    expect(r).toEqual({
      x: PAGE_WIDTH / 2 - 200,
      y: PAGE_HEIGHT / 2 - 100,
      guides: [
        { orientation: 'vertical', position: PAGE_WIDTH / 2 },
        { orientation: 'horizontal', position: PAGE_HEIGHT / 2 },
      ],
    })
  })
  it("snaps an edge to another object's edge, the nearest line winning", () => {
    const other = { x: 1000, y: 700, width: 300, height: 300 }
    const r = snapBox({ ...box, x: 1310, y: 1200 }, [other])
    expect(r.x).toBe(1300) // left edge to the other's right edge
    expect(r.y).toBe(1200) // nothing within reach vertically
    expect(r.guides).toEqual([{ orientation: 'vertical', position: 1300 }])
  })
  it('leaves a box out of reach alone', () => {
    expect(snapBox({ ...box, x: 777, y: 555 }, [], 10)).toEqual({ x: 777, y: 555, guides: [] })
  })
})

describe('keyboard nudging, layers, copy and paste', () => {
  const deck = () => loadDeck(stored)!
  it('nudges by 10 page units, ×10 with Shift; locked objects stay', () => {
    expect(nudgeDelta('ArrowRight', false)).toEqual({ dx: 10, dy: 0 })
    expect(nudgeDelta('ArrowUp', true)).toEqual({ dx: 0, dy: -100 })
    expect(nudgeDelta('a', false)).toBeNull()
    const s = nudge(deck()[0], ['t1', 'f1'], 0, -100)
    expect(s.objects[0].y).toBe(-19) // 80.5 - 100, rounded
    expect(s.objects[1].y).toBe(900) // locked
  })
  it('reorders layers and slides; deletes unlocked objects only', () => {
    const s = deck()[0]
    expect(moveLayer(s, 't1', 'forward').objects.map((o) => o.id)).toEqual(['f1', 't1', 'i1', 's1', 'p1'])
    expect(moveLayer(s, 't1', 'backward')).toBe(s)
    expect(moveLayer(s, 's1', 'back').objects.map((o) => o.id)).toEqual(['s1', 't1', 'f1', 'i1', 'p1'])
    expect(removeObjects(s, ['t1', 'f1']).objects.map((o) => o.id)).toEqual(['f1', 'i1', 's1', 'p1'])
    expect(moveItem(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b'])
    expect(moveItem(['a', 'b'], 0, -1)).toEqual(['a', 'b'])
  })
  it('pastes copies with fresh ids, shifted and unlocked; duplicates a slide with fresh ids', () => {
    const s = deck()[0]
    const { slide, ids } = pasteObjects(s, [s.objects[1]])
    const pasted = slide.objects[slide.objects.length - 1]
    expect(ids).toEqual([pasted.id])
    expect(pasted.id).not.toBe('f1')
    expect(pasted).toMatchObject({ x: 1060, y: 960, locked: false, latex: '\\frac{1}{2}' })
    const twice = duplicateSlide(deck(), 0)
    expect(twice.length).toBe(3)
    expect(twice[1].id).not.toBe('cover')
    expect(twice[1].objects.map((o) => o.id).some((id) => ['t1', 'f1', 'i1', 's1', 'p1'].includes(id))).toBe(false)
    expect(v.safeParse(SlideDeck, twice).success).toBe(true)
  })
})
