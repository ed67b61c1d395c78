// A Sabaki-style session against `tengen gtp`, through Sabaki's own GTP
// library: the state tracker syncs board size, komi and moves as Sabaki
// does, the engine plays, and `lz-analyze` / `kata-analyze` streams are
// read and parsed the way Sabaki reads them (each `info` segment ends with
// its principal variation; the keys before it come in pairs), then stopped
// by the next command. Prints `ok   <step>` per step; exits 1 on the first
// failure. Usage: node session.js TENGEN_BINARY

const {Controller, ControllerStateTracker} = require('@sabaki/gtp')

const binary = process.argv[2]
const controller = new Controller(binary, [
  'gtp',
  '--playouts',
  '400',
  '--threads',
  '1'
])
const tracker = new ControllerStateTracker(controller)

function check(condition, message) {
  if (!condition) throw new Error(message)
}

async function send(name, ...args) {
  const response = await tracker.queueCommand({name, args})
  check(!response.error, `${name} ${args.join(' ')} failed: ${response.content}`)
  return response.content
}

// A vertex as Sabaki reads it on a board of `size` (letters without I).
function parseVertex(text, size) {
  if (text === 'pass') return [-1, -1]
  const letters = 'ABCDEFGHJKLMNOPQRSTUVWXYZ'
  const x = letters.indexOf(text[0].toUpperCase())
  const y = size - Number(text.slice(1))
  check(x >= 0 && x < size && y >= 0 && y < size, `bad vertex ${text}`)
  return [x, y]
}

// One analysis line into variations, as Sabaki splits it: segments after
// `info`, the principal variation at the end of each, key/value pairs
// before it.
function parseAnalysis(line, size, kata) {
  return line
    .split(/\s*info\s+/)
    .slice(1)
    .map(segment => {
      const pv = segment.match(/\spv((\s+(pass|[A-Za-z]\d+))+)\s*$/)
      check(pv != null, `no trailing pv in: ${segment}`)
      const head = segment.slice(0, pv.index).trim().split(/\s+/)
      const fields = {}
      for (let i = 0; i + 1 < head.length; i += 2) fields[head[i]] = head[i + 1]
      const moves = pv[1].trim().split(/\s+/).map(v => parseVertex(v, size))
      const winrate = kata ? Number(fields.winrate) * 100 : Number(fields.winrate) / 100
      return {
        vertex: parseVertex(fields.move, size),
        visits: Number(fields.visits),
        winrate,
        scoreLead: fields.scoreLead == null ? null : Number(fields.scoreLead),
        moves
      }
    })
}

// Starts a streaming analysis, collects `reports` lines, stops it with
// another command as Sabaki does, and returns the lines.
async function analyze(name, args, reports) {
  const lines = []
  let enough
  const got = new Promise(resolve => (enough = resolve))
  const running = controller.sendCommand({name, args}, ({line}) => {
    if (line.startsWith('info ')) lines.push(line)
    if (lines.length >= reports) enough()
  })
  let timer
  await Promise.race([got, new Promise(r => (timer = setTimeout(r, 20000)))])
  clearTimeout(timer)
  await send('name')
  const response = await running
  check(!response.error, `${name} failed: ${response.content}`)
  check(lines.length >= reports, `${name}: ${lines.length} report lines`)
  return lines
}

// Syncs a 9x9 game at komi 6.5 whose moves are `moves` ([colour, vertex]
// pairs), as Sabaki does before it asks the engine anything.
function syncGame(moves) {
  return tracker.sync({
    boardsize: [9, 9],
    komi: 6.5,
    history: moves.map(([color, vertex]) => ({name: 'play', args: [color, vertex]}))
  })
}

async function main() {
  controller.start()
  check((await send('protocol_version')) === '2', 'protocol 2')
  check((await send('name')) === 'tengen', 'name')
  const commands = (await send('list_commands')).split('\n')
  for (const c of ['lz-analyze', 'kata-analyze', 'kata-set-rules']) {
    check(commands.includes(c), `lists ${c}`)
  }
  check(await tracker.knowsCommand('lz-analyze'), 'knows lz-analyze')
  console.log('ok   handshake')

  // Sabaki's sync: size, komi, then the game's moves.
  await syncGame([['B', 'E5'], ['W', 'C3'], ['B', 'G7']])
  check((await send('get_komi')) === '6.5', 'komi synced')
  const board = await send('showboard')
  check((board.match(/X/g) || []).length === 2, 'two black stones')
  console.log('ok   sync')

  // A history that shares a prefix is synced by undo and play.
  await syncGame([['B', 'E5'], ['W', 'C3'], ['B', 'C7']])
  const again = await send('showboard')
  check(/ 7 {2}\. \. X/.test(again), `C7 after resync:\n${again}`)
  console.log('ok   resync')

  const move = await send('genmove', 'W')
  parseVertex(move, 9)
  console.log('ok   genmove')

  for (const [name, kata] of [['lz-analyze', false], ['kata-analyze', true]]) {
    const lines = await analyze(name, ['B', '10'], 3)
    for (const line of lines) {
      const variations = parseAnalysis(line, 9, kata)
      check(variations.length > 0, `${name}: no variation in ${line}`)
      for (const v of variations) {
        check(v.visits > 0, `${name}: visits`)
        check(v.winrate >= 0 && v.winrate <= 100, `${name}: winrate ${v.winrate}`)
        check(v.moves.length > 0 && v.moves[0][0] === v.vertex[0] && v.moves[0][1] === v.vertex[1],
          `${name}: the pv starts with the move`)
        if (kata) check(Number.isFinite(v.scoreLead), `${name}: scoreLead`)
      }
    }
    console.log(`ok   ${name}`)
  }

  // The engine answers normally after the streams.
  check((await send('name')) === 'tengen', 'name after analysis')
  await send('undo')
  check((await send('final_score')).length > 0, 'final score')
  console.log('ok   after analysis')
  await controller.stop()
}

main().catch(async error => {
  console.log(`FAIL ${error.message}`)
  try {
    await controller.kill()
  } catch (_) {}
  process.exit(1)
})
