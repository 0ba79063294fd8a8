import { describe, expect, it } from 'vitest'
import { hydrated, realmApi, signedInPage } from './browser'

/**
 * Issue 14's poll console in the browser: `poll/create` refuses wrong values and saves right ones, the control screen
 * adds a question (two empty options refused), starts the poll, moves the question through publish, show result and
 * finish, and refuses a second active poll on the channel with the seed's message.
 */

const tag = Date.now().toString(36)

describe('poll console', () => {
  it('creates a poll, adds a question and runs its lifecycle from the control screen', async () => {
    const root = await realmApi('demo', 'root')
    const channelName = `Enquete na tela ${tag}`
    const channel = await root<{ id: string }>('POST', 'channel', { name: channelName, members: [{ nick: 'root', permission: 'owner' }] })

    const { page } = await signedInPage('root', '/poll/create')
    await hydrated(page)
    await page.locator('#poll-form [name=name]').fill(`Enquete ${tag}`)
    await page.locator('#poll-form [name=channel_id]').selectOption({ label: channelName })
    await page.locator('#poll-form [name=question_duration]').fill('5')
    await page.getByRole('button', { name: 'Salvar' }).click()
    await page.getByText('Deve ser maior que 8 segundos.').first().waitFor()
    expect(page.url()).toMatch(/\/poll\/create$/)
    await page.locator('#poll-form [name=question_duration]').fill('40')
    await page.getByLabel('Idade').check()
    await page.getByRole('button', { name: 'Salvar' }).click()
    await page.waitForURL(/\/poll\/control\//)
    await hydrated(page)
    const pollId = page.url().split('/').pop()!
    const saved = await root<{ question_duration: number; requires: { age: boolean; gender: boolean } }>('GET', `poll/${pollId}`)
    expect(saved.question_duration).toBe(40)
    expect(saved.requires).toMatchObject({ age: true, gender: false })

    // The question form starts with two empty options: submitting them is refused; two filled ones are saved.
    const form = page.locator('#poll-question-add')
    await form.locator('[name=text]').fill('Qual o melhor horário?')
    await form.getByRole('button', { name: 'Adicionar pergunta' }).click()
    await form.getByText('Informe ao menos duas opções.', { exact: true }).waitFor()
    await form.locator('[name="options[0]"]').fill('Manhã')
    await form.locator('[name="options[1]"]').fill('Noite')
    await form.getByRole('button', { name: 'Adicionar pergunta' }).click()
    const rows = page.locator('section[aria-labelledby=poll-questions-title] tbody tr')
    await expect.poll(() => rows.count()).toBe(1)
    expect(await rows.first().innerText()).toMatch(/Manhã · Noite/)

    // Start, then the question's lifecycle.
    await page.getByRole('button', { name: 'Publicar', exact: true }).click()
    await page.locator('.badge', { hasText: 'Ativo' }).waitFor()
    await page.getByRole('button', { name: 'Publicar pergunta' }).click()
    await rows.first().getByText('Publicada').waitFor()
    await page.getByRole('button', { name: 'Mostrar resultado' }).click()
    await rows.first().getByText('Resultado', { exact: true }).waitFor()
    await page.getByRole('button', { name: 'Encerrar', exact: true }).click()
    await rows.first().getByText('Finalizada').waitFor()
    const questions = await root<{ items: { state: string }[] }>('GET', `poll/${pollId}/question`)
    expect(questions.items.map((q) => q.state)).toEqual(['finished'])

    // A second poll on the same channel cannot start while this one is active (seed §8's message).
    const other = await root<{ id: string }>('POST', 'poll', { type: 'open', name: `Outra ${tag}`, channel_id: channel.id, question_duration: 30 })
    await root('POST', `poll/${other.id}/question`, { text: 'Sim ou não?', options: ['Sim', 'Não'] })
    await page.goto(page.url().replace(pollId, other.id))
    await hydrated(page)
    await page.getByRole('button', { name: 'Publicar', exact: true }).click()
    await page.getByRole('alert').getByText('Já existe uma enquete ativa neste canal. Finalize-a antes de iniciar uma nova').waitFor()
    expect((await root<{ status: string }>('GET', `poll/${other.id}`)).status).toBe('draft')

    // Finishing the first poll.
    await page.goto(page.url().replace(other.id, pollId))
    await hydrated(page)
    await page.getByRole('button', { name: 'Encerrar enquete' }).click()
    await page.locator('.badge', { hasText: 'Finalizado' }).waitFor()
  })
})
