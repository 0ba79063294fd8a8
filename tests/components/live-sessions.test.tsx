import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { LiveSessions } from '~/components/live/live-sessions'
import { catalogues } from '~/i18n/catalogues'

/** The console live views' sessions table (channel and room): each ended session's metrics, or the empty text. */

const pt = catalogues['pt-BR']
const session = {
  id: 's1',
  started_at: '2026-11-24T10:00:00Z',
  live_seconds: 1_530,
  peak_participants: 12,
  chat_count: 40,
  attachment_count: 3,
  hand_raise_count: 7,
}

describe('LiveSessions', () => {
  it('shows one row per session with its minutes rounded and its counts, and the note above the table', () => {
    render(<LiveSessions sessions={[session]} title="Sessões" empty="Nenhuma" note="Esta sala não grava." />)
    expect(screen.getByRole('heading', { name: 'Sessões' })).toBeTruthy()
    expect(screen.getByText('Esta sala não grava.')).toBeTruthy()
    const [header, row] = screen.getAllByRole('row')
    expect(
      within(header)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      pt['live.session.started'],
      pt['live.session.minutes'],
      pt['live.session.peak'],
      pt['live.session.chat'],
      pt['live.session.attachments'],
      pt['live.session.hands'],
      pt['live.session.video'],
    ])
    expect(
      within(row)
        .getAllByRole('cell')
        .slice(1)
        .map((c) => c.textContent),
    ).toEqual(['26', '12', '40', '3', '7', pt['live.session.video_status.no_video']])
    expect(screen.queryByText('Nenhuma')).toBeNull()
  })

  it('shows a recorded session’s video status and the video’s duration in seconds', () => {
    render(<LiveSessions sessions={[{ ...session, status: 'pending', video_status: 'processed', video_seconds: 10.4 }]} title="Sessões" empty="Nenhuma" />)
    const cell = screen.getAllByRole('cell').at(-1)!
    expect(cell.getAttribute('data-video-status')).toBe('processed')
    expect(cell.textContent).toBe(`${pt['live.session.video_status.processed']} (10 s)`)
  })

  it('says there are none, with no table, when no session ended yet', () => {
    render(<LiveSessions sessions={[]} title="Sessões" empty="Nenhuma sessão ainda." />)
    expect(screen.getByText('Nenhuma sessão ainda.')).toBeTruthy()
    expect(screen.queryByRole('table')).toBeNull()
  })
})
