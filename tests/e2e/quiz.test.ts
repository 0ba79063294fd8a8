import { describe, expect, it } from 'vitest'
import { hydrated, open, openPage, realmApi, signedInPage, url } from './browser'

/**
 * Issue 14 in the browser: a moderator (console) and two players (phone viewport, each in their own context, signed in
 * with the mobile-web sign-in on the player page) run a three-question quiz to its winners, who are paid.
 */

const tag = Date.now().toString(36)
const PASSWORD = 'senha-do-jogador-1'

describe('live quiz', () => {
  it('runs a three-question quiz from the control screen to its winners with two phone players', async () => {
    const root = await realmApi('demo', 'root')
    await root('POST', 'channel', { name: `Quiz na tela ${tag}`, members: [{ nick: 'root', permission: 'owner' }] })
    for (const n of ['ana', 'bia']) await root('POST', 'mas/user', { nick: `${n}-${tag}`, name: `Jogadora ${n}`, password: PASSWORD, roles: [] })

    // The moderator creates the quiz on screen and imports its questions.
    const { page } = await signedInPage('root', '/quiz/create')
    await page.locator('#quiz-form [name=name]').fill(`Quiz na tela ${tag}`)
    await page.locator('#quiz-form [name=channel_id]').selectOption({ label: `Quiz na tela ${tag}` })
    await page.locator('#quiz-form [name=question_duration]').fill('30')
    await page.locator('#quiz-form [name=reward_value]').fill('100')
    await page.locator('#quiz-form [name=reward_per_player]').fill('50')
    await page.getByRole('button', { name: 'Salvar' }).click()
    await page.waitForURL(/\/quiz\/control\//)
    await hydrated(page)
    const quizId = page.url().split('/').pop()!
    await page
      .locator('#quiz-question-import [name=content]')
      .fill('text,option_a,option_b,option_c,correct\nCapital do Brasil?,Rio,Brasília,Salvador,B\n2+2?,4,5,6,A\nCor do céu?,Verde,Azul,Roxo,B\n')
    await page.getByRole('button', { name: 'Importar perguntas' }).click()
    await expect.poll(() => page.getByText('Cor do céu?').count()).toBeGreaterThan(0)
    await page.getByRole('button', { name: 'Publicar', exact: true }).click()
    await page.getByRole('heading', { name: 'Ao vivo' }).waitFor()

    // Two players on phones sign in on the player page.
    const players = []
    for (const n of ['ana', 'bia']) {
      const { page: phone } = await openPage({ viewport: { width: 390, height: 780 }, isMobile: true, hasTouch: true })
      await open(phone, url('demo.localhost', `/play/quiz/${quizId}`))
      await phone.locator('#mobile-nick').fill(`${n}-${tag}`)
      await phone.getByLabel('Senha', { exact: true }).fill(PASSWORD)
      await phone.locator('form[aria-labelledby=mobile-signin-title] button[type=submit]').click()
      await phone.getByText('Aguarde a próxima pergunta.').waitFor()
      players.push(phone)
    }
    const [ana, bia] = players
    await expect.poll(() => page.getByText('Jogadores conectados: 2').count()).toBe(1)

    // Ana answers every question right; Bia misses the first (and saves herself with her extra life), then answers right.
    const answers: [string, string, string][] = [
      ['1', 'B', 'C'],
      ['2', 'A', 'A'],
      ['3', 'B', 'B'],
    ]
    for (const [n, anaOption, biaOption] of answers) {
      await page.getByRole('button', { name: `Publicar pergunta ${n}` }).click()
      await ana.getByRole('button', { name: new RegExp(`^${anaOption} `) }).click()
      await bia.getByRole('button', { name: new RegExp(`^${biaOption} `) }).click()
      await ana.getByText(`Resposta ${anaOption} recebida.`).waitFor()
      await bia.getByText(`Resposta ${biaOption} recebida.`).waitFor()
      await expect.poll(() => page.getByText('2 respostas de 2 jogadores').count()).toBe(1)
      await page.getByRole('button', { name: 'Mostrar resultado' }).click()
      await ana.getByText('Você acertou!').waitFor()
      if (n === '1') {
        await bia.getByText('Você errou.').waitFor()
        await bia.getByRole('button', { name: /Usar vida extra/ }).click()
        await bia.getByText(/0 vidas/).waitFor()
      } else await bia.getByText('Você acertou!').waitFor()
      await page.getByRole('button', { name: 'Finalizar pergunta' }).click()
      await expect.poll(() => page.getByRole('button', { name: 'Mostrar resultado' }).count()).toBe(0)
    }
    await ana.getByText(/1º lugar/).waitFor()
    // The statistics by player (from D1): both still in, Bia with the extra life she used.
    const byPlayer = page.locator('table[aria-labelledby=quiz-player-stats-title] tbody tr')
    // The screen reloads D1's figures after each close: wait for the last question's.
    await expect
      .poll(() => byPlayer.allInnerTexts())
      .toEqual([
        expect.stringMatching(/^1\s+Jogadora ana\s+\d+\s+3\s+1\s+0\s+Na disputa$/),
        expect.stringMatching(/^2\s+Jogadora bia\s+\d+\s+2\s+0\s+1\s+Na disputa$/),
      ])

    // Finish: the winners are paid (100 credits, 50 each) and the screen says who was paid.
    await page.getByRole('button', { name: 'Finalizar e pagar' }).click()
    await page.locator('.badge', { hasText: 'Finalizado' }).waitFor()
    const winners = page.locator('section[aria-labelledby=quiz-winners-title] tbody tr')
    await expect.poll(() => winners.count()).toBe(2)
    expect(await winners.nth(0).innerText()).toMatch(/Jogadora ana.*50 créditos/s)
    expect(await winners.nth(1).innerText()).toMatch(/Jogadora bia.*50 créditos/s)
    const paid = await root<{ payouts: { nick: string; points: number }[] }>('GET', `quiz/${quizId}/winners`)
    expect(paid.payouts.map((p) => [p.nick.split('@')[0], p.points])).toEqual([
      [`ana-${tag}`, 50],
      [`bia-${tag}`, 50],
    ])
  })
})
