import { describe, expect, it } from 'vitest'
import { hydrated, open, openPage, realmApi, signedInPage, url } from './browser'

/**
 * Issue 14's live poll in the browser: a moderator (console) and a player on a phone (own context, signed in with the
 * mobile-web sign-in on `/play/poll/{id}`, reached from the channel's shared link) run a one-question poll: the player answers the poll's requirements (a
 * wrong age refused on the form), votes with one tap, and the moderator sees the vote arrive live and the
 * distribution from D1 once the question finishes.
 */

const tag = Date.now().toString(36)
const PASSWORD = 'senha-do-votante-1'

describe('live poll', () => {
  it('runs a one-question poll with a phone player and shows the moderator the distribution', async () => {
    const root = await realmApi('demo', 'root')
    const channel = await root<{ id: string }>('POST', 'channel', { name: `Enquete viva ${tag}`, members: [{ nick: 'root', permission: 'owner' }] })
    const nick = `carla-${tag}`
    await root('POST', 'mas/user', { nick, name: 'Votante Carla', password: PASSWORD, roles: [] })
    const poll = await root<{ id: string }>('POST', 'poll', {
      type: 'open',
      name: `Enquete viva ${tag}`,
      channel_id: channel.id,
      question_duration: 60,
      requires: { age: true, gender: true },
    })
    await root('POST', `poll/${poll.id}/question`, { text: 'Prefere aula de manhã ou à noite?', options: ['Manhã', 'Noite', 'Tanto faz'] })

    // The moderator starts the poll on the control screen: the live island connects.
    // (The control screen hides the sidebar, so the sign-in lands on the list first.)
    const { page } = await signedInPage('root', '/poll')
    await open(page, url('demo.localhost', `/poll/control/${poll.id}`))
    await hydrated(page)
    await page.getByRole('button', { name: 'Publicar', exact: true }).click()
    await page.getByRole('heading', { name: 'Votação ao vivo' }).waitFor()

    // The player signs in on a phone and answers the requirements (a wrong age first).
    const { page: phone } = await openPage({ viewport: { width: 390, height: 780 }, isMobile: true, hasTouch: true })
    // From the channel's shared link: the deep-link page offers the running poll.
    await open(phone, url('demo.localhost', `/deeplink?channel=${channel.id}`))
    await phone.getByRole('link', { name: `Votar na enquete: Enquete viva ${tag}` }).click()
    await phone.waitForURL(new RegExp(`/play/poll/${poll.id}$`))
    await phone.locator('#mobile-nick').fill(nick)
    await phone.getByLabel('Senha', { exact: true }).fill(PASSWORD)
    await phone.locator('form[aria-labelledby=mobile-signin-title] button[type=submit]').click()
    await phone.getByRole('heading', { name: 'Antes de votar' }).waitFor()
    await phone.getByLabel('Idade').fill('0')
    await phone.getByRole('button', { name: 'Continuar' }).click()
    await phone.getByText('Valor abaixo do mínimo.').waitFor()
    await phone.getByLabel('Idade').fill('34')
    await phone.getByLabel('Gênero').selectOption({ label: 'Feminino' })
    await phone.getByRole('button', { name: 'Continuar' }).click()
    await phone.getByText('Aguarde a próxima pergunta.').waitFor()
    await expect.poll(() => page.getByText('Jogadores conectados: 1').count()).toBe(1)

    // The question is published; the player votes with one tap; the moderator sees it arrive.
    await page.getByRole('button', { name: 'Publicar pergunta 1' }).click()
    await phone.getByRole('button', { name: 'Noite' }).click()
    await phone.getByText('Voto recebido.').waitFor()
    const live = page.locator('section[aria-labelledby=poll-live-title]')
    await expect.poll(() => live.getByRole('list').innerText()).toMatch(/Manhã — 0\s+Noite — 1\s+Tanto faz — 0/)
    await live.getByText('1 votos · 1 conectados').waitFor()

    // Result to everyone, then the question finishes: the distribution on the screen comes from D1.
    await page.getByRole('button', { name: 'Mostrar resultado' }).click()
    await phone.getByRole('button', { name: /Noite — 1/ }).waitFor()
    await page.getByRole('button', { name: 'Encerrar', exact: true }).click()
    const row = page.locator('section[aria-labelledby=poll-questions-title] tbody tr').first()
    await row.getByText('Finalizada').waitFor()
    expect(await row.getByRole('list').innerText()).toMatch(/Manhã: 0\s+Noite: 1\s+Tanto faz: 0/)
    const stats = await root<{ questions: { votes: number; distribution: Record<string, number> }[] }>('GET', `poll/${poll.id}/statistics`)
    expect(stats.questions[0]).toMatchObject({ votes: 1, distribution: { '1': 1 } })
  })
})
