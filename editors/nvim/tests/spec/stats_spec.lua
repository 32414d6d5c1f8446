-- :CompanionStats: after a scripted turn with a tool call against the real
-- binary, the float shows the session's requests, tokens and the call, as
-- the agent's _companion/session/stats answered them.
local h = require('helpers')

describe('stats', function()
  after_each(h.reset)

  it('renders every figure', function()
    local lines = require('companion.stats').lines({
      requests = 3, errors = 1, cacheHitRatio = 0.25, modelTimeMs = 1500, toolTimeMs = 40,
      tokens = { prompt = 1200, output = 80, cached = 300, thoughts = 20, total = 1300 },
      toolCalls = 2, toolSuccess = 1, toolFailed = 1, successRate = 0.5,
      decisions = { policy = 1, mode = 0, hook = 0, user = 0, rejected = 1, denied = 0, blocked = 0 },
      models = { { name = 'm1', requests = 3, errors = 1, timeMs = 1500, cacheHitRatio = 0.25,
        tokens = { prompt = 1200, output = 80, cached = 300, thoughts = 20, total = 1300 } } },
      tools = { { name = 'read_file', calls = 2, success = 1, failed = 1, timeMs = 40 } },
    })
    local text = table.concat(lines, '\n')
    assert.matches('Model requests: 3 (1 error)', text, 1, true)
    assert.matches('Tokens: 1200 prompt, 80 output, 300 cached (25.0% cache hits), 20 thoughts, 1300 total', text, 1, true)
    assert.matches('Time: 1.5s in the model, 40ms in tools', text, 1, true)
    assert.matches('Tool calls: 2 (1 succeeded, 1 failed; 50.0% success)', text, 1, true)
    assert.matches('1 rejected', text, 1, true)
    assert.matches('- m1: 3 requests, 1 error;', text, 1, true)
    assert.matches('- read_file: 2 calls, 1 succeeded, 1 failed; 40ms', text, 1, true)
    local servers = table.concat(require('companion.stats').lines({ languageServers = {
      'gopls (/w): running, 84 MB',
      'pyright is not installed (pyright-langserver is not on PATH); install it with: npm install -g pyright' } }), '\n')
    assert.matches('Language servers:\n- gopls (/w): running, 84 MB\n- pyright is not installed', servers, 1, true)
    assert.matches('install it with: npm install -g pyright', servers, 1, true)
    assert.matches('Language servers: none for this workspace', table.concat(require('companion.stats').lines({ languageServers = {} }), '\n'), 1, true)
    local empty = table.concat(require('companion.stats').lines({}), '\n')
    assert.matches('No tool calls yet.', empty, 1, true)
    assert.matches('n/a cache hits', empty, 1, true)
  end)

  it(':CompanionStats shows the requests, tokens and the tool call of a turn', function()
    local env = h.start('stats')
    h.write_file(env.project .. '/notes.txt', 'hi\n')
    vim.cmd('Companion st-read: read notes.txt')
    h.wait(function() return h.transcript():find('It says hi.', 1, true) end, 'the answer')
    h.wait_turn()
    if not h.app().client:supports('stats') then
      pending('the companion binary does not advertise stats')
      return
    end
    local shown
    require('companion').stats(function(err, buf)
      shown = { err = err, buf = buf }
    end)
    h.wait(function() return shown end, 'the stats float')
    assert.is_nil(shown.err)
    local text = table.concat(vim.api.nvim_buf_get_lines(shown.buf, 0, -1, false), '\n')
    assert.matches('Model requests: 2 (0 errors)', text, 1, true)
    assert.matches('Tokens: 100 prompt, 9 output', text, 1, true)
    assert.matches('Tool calls: 1 (1 succeeded, 0 failed; 100.0% success)', text, 1, true)
    assert.matches('- read_file: 1 call, 1 succeeded', text, 1, true)
    assert.are.equal(shown.buf, vim.api.nvim_get_current_buf(), 'the float has the focus')
    vim.cmd('normal q')
    assert.is_false(vim.api.nvim_buf_is_valid(shown.buf), 'q closes it')
  end)

  it(':CompanionStats without a session says so', function()
    h.start('stats')
    local notes = {}
    local notify = vim.notify
    vim.notify = function(msg) notes[#notes + 1] = msg end
    local ok, err = pcall(vim.cmd, 'CompanionStats')
    vim.notify = notify
    assert(ok, err)
    assert.matches('no session yet', notes[#notes] or '', 1, true)
  end)
end)
