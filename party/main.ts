import type * as Party from 'partykit/server'

/** The PartyKit entry: every live feature is a named party (partykit.json `parties`); the main party accepts nothing. */
export default class Main implements Party.Server {
  constructor(readonly room: Party.Room) {}

  static onBeforeConnect() {
    return new Response('Connect to a named party.', { status: 404 })
  }

  onRequest() {
    return new Response('Not found.', { status: 404 })
  }
}

Main satisfies Party.Worker
