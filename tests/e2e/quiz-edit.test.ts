import { describe, expect, it } from 'vitest'
import { hydrated, open, realmApi, signedInPage, url } from './browser'

/**
 * Issue 14's screens around the control screen, in the browser: a draft quiz's and a draft poll's settings changed
 * from the control screen's shared header (a wrong value refused on the form, the right one saved; once started the
 * settings no longer change), and the question import from a chosen file (a CSV whose bad row is named by its line,
 * then a JSON file imported).
 */

const tag = Date.now().toString(36)

type RealmApi = Awaited<ReturnType<typeof realmApi>>

/** A channel root owns. */
const ownedChannel = (root: RealmApi, name: string) => root<{ id: string }>('POST', 'channel', { name, members: [{ nick: 'root', permission: 'owner' }] })

/** A draft quiz on `channelId` paid by the realm (no reward unless `reward` says), 20 s a question and 15 s for an extra life. */
const draftQuiz = (root: RealmApi, name: string, channelId: string, reward = { reward_value: 0, reward_per_player: 0 }) =>
  root<{ id: string }>('POST', 'quiz', { name, channel_id: channelId, reward_type: 'realm', ...reward, question_duration: 20, lifes_timeout: 15 })

describe('quiz and poll settings, import from a file', () => {
  it('changes a draft quiz’s settings, imports its questions from files, and keeps a started quiz’s settings', async () => {
    const root = await realmApi('demo', 'root')
    const first = await ownedChannel(root, `Quiz editar A ${tag}`)
    const second = await ownedChannel(root, `Quiz editar B ${tag}`)
    const quiz = await draftQuiz(root, `Quiz rascunho ${tag}`, first.id, { reward_value: 10, reward_per_player: 5 })

    // The control screen's header offers the draft's settings; a time of 5 s is refused on the form.
    const { page } = await signedInPage('root', '/quiz')
    await open(page, url('demo.localhost', `/quiz/control/${quiz.id}`))
    await hydrated(page)
    await page.getByRole('link', { name: 'Editar configurações' }).click()
    await page.waitForURL(new RegExp(`/quiz/edit/${quiz.id}$`))
    await hydrated(page)
    const form = page.locator('#quiz-form')
    expect(await form.locator('[name=name]').inputValue()).toBe(`Quiz rascunho ${tag}`)
    expect(await form.locator('[name=question_duration]').inputValue()).toBe('20')
    await form.locator('[name=name]').fill(`Quiz revisto ${tag}`)
    await form.locator('[name=question_duration]').fill('5')
    await form.locator('[name=channel_id]').selectOption({ label: `Quiz editar B ${tag}` })
    await page.getByRole('button', { name: 'Salvar' }).click()
    await form.getByText('Deve ser maior que 8 segundos.').first().waitFor()
    expect(page.url()).toMatch(new RegExp(`/quiz/edit/${quiz.id}$`))
    await form.locator('[name=question_duration]').fill('25')
    await page.getByRole('button', { name: 'Salvar' }).click()
    await page.waitForURL(new RegExp(`/quiz/control/${quiz.id}$`))
    await page.getByRole('heading', { name: `Controle do quiz: Quiz revisto ${tag}` }).waitFor()
    const saved = await root<{ name: string; question_duration: number; channel_id: string }>('GET', `quiz/${quiz.id}`)
    expect(saved).toMatchObject({ name: `Quiz revisto ${tag}`, question_duration: 25, channel_id: second.id })

    // A CSV file whose third line has no correct option: the file's text is on screen and its line is named.
    await hydrated(page)
    const picker = page.getByLabel('Arquivo (CSV ou JSON)')
    await picker.setInputFiles({
      name: 'perguntas.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('text,option_a,option_b,option_c,correct\nCapital do Brasil?,Rio,Brasília,Salvador,B\nCor do céu?,Verde,Azul,Roxo,\n'),
    })
    await page.getByText('perguntas.csv carregado. Confira o conteúdo e importe.').waitFor()
    expect(await page.locator('#quiz-question-import [name=content]').inputValue()).toContain('Cor do céu?,Verde,Azul,Roxo,')
    expect(await page.locator('#quiz-question-import [name=format]').inputValue()).toBe('csv')
    await page.getByRole('button', { name: 'Importar perguntas' }).click()
    await page.getByText('Linha 3: Informe a resposta correta (A, B ou C).').first().waitFor()
    expect(await root<{ items: unknown[] }>('GET', `quiz/${quiz.id}/question`)).toMatchObject({ items: [] })

    // A JSON file: the format follows the file, and its questions are imported.
    await picker.setInputFiles({
      name: 'perguntas.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify([{ text: 'Quanto é 2+2?', option_a: '4', option_b: '5', option_c: '6', correct: 'A' }])),
    })
    await expect.poll(() => page.locator('#quiz-question-import [name=format]').inputValue()).toBe('json')
    await page.getByRole('button', { name: 'Importar perguntas' }).click()
    await page.locator('section[aria-labelledby=quiz-questions-title] tbody tr', { hasText: 'Quanto é 2+2?' }).waitFor()
    expect((await root<{ items: { text: string }[] }>('GET', `quiz/${quiz.id}/question`)).items.map((q) => q.text)).toEqual(['Quanto é 2+2?'])
    // The form emptied after the import: the chosen file and its note went with it.
    await expect.poll(() => page.getByText('perguntas.json carregado. Confira o conteúdo e importe.').count()).toBe(0)
    expect(await picker.inputValue()).toBe('')

    // Started: the header no longer offers the settings, and their screen says why instead of a form.
    await page.getByRole('button', { name: 'Publicar', exact: true }).click()
    await page.locator('.badge', { hasText: 'Ativo' }).waitFor()
    expect(await page.getByRole('link', { name: 'Editar configurações' }).count()).toBe(0)
    await open(page, url('demo.localhost', `/quiz/edit/${quiz.id}`))
    await page.getByText('Só um rascunho pode ser alterado.').waitFor()
    expect(await page.locator('#quiz-form').count()).toBe(0)
    await root('POST', `quiz/${quiz.id}/cancel`)
  })

  it('edits a pending question on the control screen: an empty statement refused, the right one saved', async () => {
    const root = await realmApi('demo', 'root')
    const channel = await ownedChannel(root, `Quiz pergunta ${tag}`)
    const quiz = await draftQuiz(root, `Quiz perguntas ${tag}`, channel.id)
    await root('POST', `quiz/${quiz.id}/question`, { text: 'Capital do Brasil?', option_a: 'Rio', option_b: 'Brasília', option_c: 'Salvador', correct: 'A' })
    await root('POST', `quiz/${quiz.id}/question`, { text: 'Cor do céu?', option_a: 'Azul', option_b: 'Verde', option_c: 'Roxo', correct: 'A' })

    const { page } = await signedInPage('root', '/quiz')
    await open(page, url('demo.localhost', `/quiz/control/${quiz.id}`))
    await hydrated(page)
    await page.getByRole('button', { name: 'Editar pergunta 1' }).click()
    const form = page.locator('form[aria-label="Editar pergunta 1"]')
    expect(await form.locator('[name=text]').inputValue()).toBe('Capital do Brasil?')
    expect(await form.locator('[name=correct]').inputValue()).toBe('A')
    // Wrong: an empty statement is refused on the form and nothing changes.
    await form.locator('[name=text]').fill('')
    await form.getByRole('button', { name: 'Salvar pergunta' }).click()
    await form.getByText('Campo obrigatório.').first().waitFor()
    // Right: the statement and the correct option change; the form closes and the table shows them.
    await form.locator('[name=text]').fill('Qual é a capital do Brasil?')
    await form.locator('[name=correct]').selectOption('B')
    await form.getByRole('button', { name: 'Salvar pergunta' }).click()
    await expect.poll(() => form.count()).toBe(0)
    const rows = page.locator('section[aria-labelledby=quiz-questions-title] tbody tr')
    await rows.filter({ hasText: 'Qual é a capital do Brasil?' }).waitFor()
    const items = (await root<{ items: { text: string; correct: string }[] }>('GET', `quiz/${quiz.id}/question`)).items
    expect(items.map((q) => [q.text, q.correct])).toEqual([
      ['Qual é a capital do Brasil?', 'B'],
      ['Cor do céu?', 'A'],
    ])
    await page.reload()
    await rows.filter({ hasText: 'Qual é a capital do Brasil?' }).waitFor()
  })

  it('imports questions from the task question bank: a search, a choice, what was imported and what was skipped and why', async () => {
    const root = await realmApi('demo', 'root')
    const channel = await ownedChannel(root, `Quiz banco ${tag}`)
    const quiz = await draftQuiz(root, `Quiz do banco ${tag}`, channel.id)
    const choice = (answers: boolean[]) => answers.map((answer, i) => ({ statement: `<p>Opção ${'ABC'[i]}</p>`, answer }))
    const bank = (statement: string, answers: boolean[]) =>
      root<{ id: string }>('POST', 'tms/question_bank', { type: 'single', statement: `<p>${statement}</p>`, score: 1, options: choice(answers) })
    await bank(`Banco ${tag}: qual é primo?`, [true, false, false])
    await bank(`Banco ${tag}: só duas opções`, [true, false])
    await bank(`Banco ${tag}: longa ${'demais '.repeat(50)}`, [false, true, false])

    const { page } = await signedInPage('root', '/quiz')
    await open(page, url('demo.localhost', `/quiz/control/${quiz.id}`))
    await hydrated(page)
    const card = page.getByRole('region', { name: 'Importar do banco de questões' })
    const search = card.getByRole('searchbox', { name: 'Buscar no banco de questões' })
    // A search that finds nothing says so.
    await search.fill(`nada-${tag}`)
    await card.getByRole('button', { name: 'Buscar' }).click()
    await card.getByText(`Nenhuma questão de escolha única com “nada-${tag}”.`).waitFor()
    await search.fill(tag)
    await card.getByRole('button', { name: 'Buscar' }).click()
    const form = card.locator('#quiz-question-bank')
    await form.getByLabel(`Banco ${tag}: qual é primo?`).waitFor()
    expect(await form.getByRole('checkbox').count()).toBe(3)
    await hydrated(page)
    // Nothing chosen: refused on the form.
    await form.getByRole('button', { name: 'Importar selecionadas' }).click()
    await form.getByText('A importação precisa de ao menos uma pergunta.').first().waitFor()
    // Only an item that does not fit: the API refuses it, and nothing is added.
    await form.getByLabel(`Banco ${tag}: só duas opções`).check()
    await form.getByRole('button', { name: 'Importar selecionadas' }).click()
    await form.getByText('Só questões de escolha única com três opções podem ser importadas.').first().waitFor()
    expect((await root<{ items: unknown[] }>('GET', `quiz/${quiz.id}/question`)).items).toEqual([])
    // All three: the one that fits is imported, the other two are named with their reasons.
    await form.getByLabel(`Banco ${tag}: qual é primo?`).check()
    await form.getByLabel(new RegExp(`Banco ${tag}: longa`)).check()
    await form.getByRole('button', { name: 'Importar selecionadas' }).click()
    const report = card.getByRole('status')
    await report.getByText('1 pergunta importada:').waitFor()
    await report.getByText(`1. Banco ${tag}: qual é primo?`).waitFor()
    await report.getByText('2 questões puladas:').waitFor()
    await report.getByText(`Banco ${tag}: só duas opções — Só questões de escolha única com três opções podem ser importadas.`).waitFor()
    await report.getByText(/longa demais .* — Enunciado: Texto longo demais\.$/).waitFor()
    const rows = page.locator('section[aria-labelledby=quiz-questions-title] tbody tr')
    await rows.filter({ hasText: `Banco ${tag}: qual é primo?` }).waitFor()
    expect(await form.getByRole('checkbox', { checked: true }).count()).toBe(0)
    const items = (await root<{ items: { text: string; option_a: string; correct: string }[] }>('GET', `quiz/${quiz.id}/question`)).items
    expect(items.map((q) => [q.text, q.option_a, q.correct])).toEqual([[`Banco ${tag}: qual é primo?`, 'Opção A', 'A']])
    // The search stays in the address: a reload offers the same items, the imported question in the table.
    await page.reload()
    await rows.filter({ hasText: `Banco ${tag}: qual é primo?` }).waitFor()
    expect(await search.inputValue()).toBe(tag)
    expect(await form.getByRole('checkbox').count()).toBe(3)
  })

  it('edits a pending poll question on the control screen: an empty statement refused, the right one saved', async () => {
    const root = await realmApi('demo', 'root')
    const channel = await ownedChannel(root, `Enquete pergunta ${tag}`)
    const poll = await root<{ id: string }>('POST', 'poll', { type: 'open', name: `Enquete perguntas ${tag}`, channel_id: channel.id, question_duration: 30 })
    await root('POST', `poll/${poll.id}/question`, { text: 'Gostou da aula?', type: 'single', options: ['Sim', 'Não'], params: {} })
    await root('POST', `poll/${poll.id}/question`, { text: 'Nota da aula', type: 'rating', options: [], params: { scale: 5 } })

    const { page } = await signedInPage('root', '/poll')
    await open(page, url('demo.localhost', `/poll/control/${poll.id}`))
    await hydrated(page)
    await page.getByRole('button', { name: 'Editar pergunta 1' }).click()
    const form = page.locator('form[aria-label="Editar pergunta 1"]')
    expect(await form.locator('[name=text]').inputValue()).toBe('Gostou da aula?')
    expect(await form.getByLabel('Opção 2').inputValue()).toBe('Não')
    // Wrong: an empty statement is refused on the form and nothing changes.
    await form.locator('[name=text]').fill('')
    await form.getByRole('button', { name: 'Salvar pergunta' }).click()
    await form.getByText('Campo obrigatório.').first().waitFor()
    // Right: the statement and an option change, a third option is added; the form closes and the table shows them.
    await form.locator('[name=text]').fill('Você gostou da aula de hoje?')
    await form.getByLabel('Opção 2').fill('Não muito')
    await form.getByRole('button', { name: 'Adicionar opção' }).click()
    await form.getByLabel('Opção 3').fill('Talvez')
    await form.getByRole('button', { name: 'Salvar pergunta' }).click()
    await expect.poll(() => form.count()).toBe(0)
    const rows = page.locator('section[aria-labelledby=poll-questions-title] tbody tr')
    await rows.filter({ hasText: 'Você gostou da aula de hoje?' }).filter({ hasText: 'Sim · Não muito · Talvez' }).waitFor()
    const items = (await root<{ items: { text: string; options: string[] }[] }>('GET', `poll/${poll.id}/question`)).items
    expect(items.map((q) => [q.text, q.options])).toEqual([
      ['Você gostou da aula de hoje?', ['Sim', 'Não muito', 'Talvez']],
      ['Nota da aula', []],
    ])
    await page.reload()
    await rows.filter({ hasText: 'Você gostou da aula de hoje?' }).waitFor()
    // Started and the question published through the API: it is no longer pending, so no edit is offered for it.
    await root('POST', `poll/${poll.id}/start`)
    const first = (await root<{ items: { id: string }[] }>('GET', `poll/${poll.id}/question`)).items[0]
    await root('POST', `poll/${poll.id}/question/${first.id}/publish`)
    await page.reload()
    await hydrated(page)
    await page.getByRole('button', { name: 'Editar pergunta 2' }).waitFor()
    expect(await page.getByRole('button', { name: 'Editar pergunta 1' }).count()).toBe(0)
    await root('POST', `poll/${poll.id}/cancel`)
  })

  it('changes a draft poll’s settings from its control screen', async () => {
    const root = await realmApi('demo', 'root')
    const channel = await ownedChannel(root, `Enquete editar ${tag}`)
    const poll = await root<{ id: string }>('POST', 'poll', { type: 'open', name: `Enquete rascunho ${tag}`, channel_id: channel.id, question_duration: 30 })

    const { page } = await signedInPage('root', '/poll')
    await open(page, url('demo.localhost', `/poll/control/${poll.id}`))
    await hydrated(page)
    await page.getByRole('link', { name: 'Editar configurações' }).click()
    await page.waitForURL(new RegExp(`/poll/edit/${poll.id}$`))
    await hydrated(page)
    const form = page.locator('#poll-form')
    await form.locator('[name=name]').fill('')
    await page.getByRole('button', { name: 'Salvar' }).click()
    await form.getByText('Campo obrigatório.').first().waitFor()
    await form.locator('[name=name]').fill(`Enquete revista ${tag}`)
    await form.getByLabel('Idade').check()
    await page.getByRole('button', { name: 'Salvar' }).click()
    await page.waitForURL(new RegExp(`/poll/control/${poll.id}$`))
    await page.getByRole('heading', { name: `Controle da enquete: Enquete revista ${tag}` }).waitFor()
    await page.getByText(/Requisitos: Idade/).waitFor()
    const saved = await root<{ name: string; requires: Record<string, boolean> }>('GET', `poll/${poll.id}`)
    expect(saved).toMatchObject({ name: `Enquete revista ${tag}`, requires: { age: true } })
  })
})
