-- Unit tests of the client-side pieces that need no agent: fs, terminals,
-- transcript rendering, mentions, status line.
local h = require('helpers')
local fs = require('companion.fs')
local terminal = require('companion.terminal')
local transcript = require('companion.transcript')
local mentions = require('companion.mentions')
local updates = require('companion.updates')

-- fake_req is an incoming request object that records its answer.
local function fake_req()
  local req = { answers = {} }
  function req.reply(r) table.insert(req.answers, { result = r }) end
  function req.fail(c, m) table.insert(req.answers, { error = { code = c, message = m } }) end
  function req.on_cancel(fn) req.cancel = fn end
  return req
end

describe('fs', function()
  after_each(h.reset)

  it('slices by 1-based line and limit', function()
    local text = 'a\nb\nc\nd\n'
    assert.are.equal(text, fs.slice(text, nil, nil))
    assert.are.equal('b\nc\n', fs.slice(text, 2, 2))
    assert.are.equal('c\nd\n', fs.slice(text, 3, nil))
    assert.are.equal('a\n', fs.slice(text, vim.NIL, 1))
    assert.are.equal('x\ny', fs.slice('x\ny', 1, 5))
  end)

  it('reads the loaded buffer (with line/limit) and the disk otherwise', function()
    local dir = vim.fn.resolve(vim.fn.tempname())
    h.write_file(dir .. '/a.txt', 'disk 1\ndisk 2\n')
    h.write_file(dir .. '/b.txt', 'only on disk\n')
    vim.cmd('edit ' .. dir .. '/a.txt')
    vim.api.nvim_buf_set_lines(0, 0, -1, false, { 'buf 1', 'buf 2', 'buf 3' })
    assert.are.equal('buf 1\nbuf 2\nbuf 3\n', fs.read({ path = dir .. '/a.txt' }).content)
    assert.are.equal('buf 2\n', fs.read({ path = dir .. '/a.txt', line = 2, limit = 1 }).content)
    assert.are.equal('only on disk\n', fs.read({ path = dir .. '/b.txt' }).content)
    local ok, err = pcall(fs.read, { path = dir .. '/missing.txt' })
    assert.is_false(ok)
    assert.are.equal(-32002, err.code)
  end)

  it('writes a file that is not loaded to disk, folders included', function()
    local dir = vim.fn.resolve(vim.fn.tempname())
    fs.write({ path = dir .. '/new/deep/c.txt', content = 'created\nno newline' })
    assert.are.equal('created\nno newline', h.read_file(dir .. '/new/deep/c.txt'))
  end)

  it('writes a loaded buffer and keeps a missing final newline', function()
    local dir = vim.fn.resolve(vim.fn.tempname())
    h.write_file(dir .. '/d.txt', 'old\n')
    vim.cmd('edit ' .. dir .. '/d.txt')
    fs.write({ path = dir .. '/d.txt', content = 'one\ntwo' })
    assert.are.same({ 'one', 'two' }, vim.api.nvim_buf_get_lines(0, 0, -1, false))
    assert.are.equal('one\ntwo', h.read_file(dir .. '/d.txt'))
  end)
end)

describe('terminal', function()
  it('keeps the last outputByteLimit bytes at a character boundary', function()
    local terms = terminal.new()
    local id = terms:create({ command = 'printf', args = { 'aaaa\\303\\251bbb' }, outputByteLimit = 4 }).terminalId
    local req = fake_req()
    terms:wait_for_exit({ terminalId = id }, req)
    h.wait(function() return #req.answers == 1 end, 'the exit')
    local out = terms:output({ terminalId = id })
    -- 'aaaaébbb' (é is two bytes): the last 4 bytes start inside 'é'.
    assert.are.equal('bbb', out.output)
    assert.is_true(out.truncated)
    assert.are.equal(0, out.exitStatus.exitCode)
    assert.are.equal(0, req.answers[1].result.exitCode)
  end)

  it('passes cwd and env, kills, and still answers after a kill', function()
    local terms = terminal.new()
    local dir = vim.fn.resolve(vim.fn.tempname())
    vim.fn.mkdir(dir, 'p')
    local id = terms:create({ command = 'bash', args = { '-c', 'echo "$PWD $FOO"; sleep 30' }, cwd = dir,
      env = { { name = 'FOO', value = 'bar' } } }).terminalId
    h.wait(function() return terms:output({ terminalId = id }).output ~= '' end, 'the first output')
    assert.are.equal(dir .. ' bar\n', terms:output({ terminalId = id }).output)
    assert.are.equal(vim.NIL, terms:output({ terminalId = id }).exitStatus)
    local req = fake_req()
    assert.is_nil(terms:wait_for_exit({ terminalId = id }, req))
    terms:kill({ terminalId = id })
    h.wait(function() return #req.answers == 1 end, 'wait_for_exit after kill')
    assert.are.equal('SIGTERM', req.answers[1].result.signal)
    terms:release({ terminalId = id })
    local ok, err = pcall(terms.output, terms, { terminalId = id })
    assert.is_false(ok)
    assert.are.equal(-32002, err.code)
  end)

  it('drops a cancelled wait_for_exit', function()
    local terms = terminal.new()
    local id = terms:create({ command = 'sleep', args = { '30' } }).terminalId
    local req = fake_req()
    terms:wait_for_exit({ terminalId = id }, req)
    req.cancel()
    terms:release({ terminalId = id })
    vim.wait(200)
    assert.are.equal(0, #req.answers)
  end)
end)

describe('transcript', function()
  it('renders tool cards with live status, kind and content, and the plan as a checklist', function()
    local buf = vim.api.nvim_create_buf(false, true)
    local t = transcript.new(buf)
    t:append_text('agent', 'Hi')
    t:tool({ toolCallId = 'c1', title = 'Edit a.txt', kind = 'edit', status = 'pending',
      content = { { type = 'diff', path = '/x/a.txt', oldText = 'a\nb\n', newText = 'a\nc\nd\n' } } })
    t:plan({ { content = 'Step one', status = 'completed', priority = 'high' },
      { content = 'Step two', status = 'in_progress', priority = 'medium' } })
    t:tool({ toolCallId = 'c1', status = 'completed' })
    local text = t:text()
    assert.matches('✓ [edit · completed] Edit a.txt\n  edit /x/a.txt (+2 −1)', text, 1, true)
    assert.matches('### Plan\n- [x] Step one\n- [~] Step two  ← in progress', text, 1, true)
    t:plan({ { content = 'Step one', status = 'completed', priority = 'high' } })
    assert.is_nil(t:text():find('Step two', 1, true))
    t:append_text('agent', 'more')
    assert.matches('- [x] Step one\n\nmore', t:text(), 1, true)
    assert.matches('  edit /x/a.txt (+2 −1)\n  @@ -1,2 +1,3 @@\n   a\n  -b\n  +c\n  +d\n', t:text(), 1, true)
    -- A new turn gets its header again.
    t:append_text('user', 'next')
    t:append_text('agent', 'answer')
    assert.matches('## You\nnext\n\n## companion\nanswer', t:text(), 1, true)
    -- A terminal card without output (replayed) shows no empty terminal.
    t:tool({ toolCallId = 'c9', title = 'echo', kind = 'execute', status = 'completed',
      content = { { type = 'terminal', terminalId = 'gone' } } })
    assert.is_nil(t:text():find('terminal gone', 1, true))
    t:cancel_tools()
    t:tool({ toolCallId = 'c2', title = 'Run', kind = 'execute', status = 'in_progress' })
    t:cancel_tools()
    assert.matches('⊘ [execute · cancelled] Run', t:text(), 1, true)
    t:tool({ toolCallId = 'c3', title = 'cat <<EOF\nx\nEOF', kind = 'execute', status = 'pending' })
    assert.matches('○ [execute · pending] cat <<EOF …', t:text(), 1, true)
    t:note('two\nlines')
    assert.matches('\ntwo\nlines$', t:text())
    assert.matches('✓ [edit · completed]', t:text(), 1, true)
  end)
end)

describe('mentions and status', function()
  it('finds @files, quoted ones too, and percent-encodes URIs', function()
    local dir = vim.fn.resolve(vim.fn.tempname())
    h.write_file(dir .. '/a b.txt', 'x')
    h.write_file(dir .. '/c.lua', 'y')
    local paths = mentions.paths('see @c.lua, and @"a b.txt" but not @missing or a@c.lua', dir)
    assert.are.same({ dir .. '/a b.txt', dir .. '/c.lua' }, paths)
    assert.are.equal('file:///tmp/a%20b.txt', mentions.uri('/tmp/a b.txt'))
    local blocks = mentions.blocks('@c.lua', dir, false)
    assert.are.equal('resource_link', blocks[2].type)
    -- An image goes as an image where the agent takes images, never as text.
    h.write_file(dir .. '/p.png', '\137PNG')
    blocks = mentions.blocks('see @p.png', dir, true, true)
    assert.are.same({ type = 'image', mimeType = 'image/png', data = 'iVBORw==' }, blocks[2])
    blocks = mentions.blocks('see @p.png', dir, true, false)
    assert.are.equal('resource_link', blocks[2].type)
  end)

  it('counts LSP columns in UTF-16 units', function()
    local compat = require('companion.compat')
    assert.are.equal(2, compat.utf16_col('é a', 3))
    assert.are.equal(2, compat.utf16_col('😀x', 4), 'an astral character is two units')
    assert.are.equal(0, compat.utf16_col('', 5))
  end)

  it('fits the status line in 80 columns, the important parts first', function()
    local app = { client = {}, busy = 1, session = {
      options = {
        { id = 'mode', category = 'mode', currentValue = 'default', options = { { value = 'default', name = 'Default' } } },
        { id = 'model', category = 'model', currentValue = 'm', options = { { value = 'm', name = 'gemini-2.5-flash' } } },
      },
      usage = { used = 123456, size = 1048576, cost = { amount = 0.25, currency = 'USD' } },
      title = 'Refactor the permission wording across both editors and the agent',
    } }
    local line = updates.status_line(app, 80)
    assert.is_true(vim.fn.strdisplaywidth(line) <= 80, line)
    assert.are.equal(' mode: Default │ model: gemini-2.5-flash │ ctx 123.5k/1.0M (12%) · 0.25 USD', line)
    app.session.usage.cost = nil
    assert.are.equal(' mode: Default │ model: gemini-2.5-flash │ ctx 123.5k/1.0M (12%) │ working…', updates.status_line(app, 80))
    assert.are.equal(' mode: Default │ model: gemin…', updates.status_line(app, 30))
    assert.are.equal(' companion │ not running', updates.status_line({}, 80))
  end)

  it('formats usage', function()
    assert.are.equal('ctx 12.3k/1.0M (1%)', updates.usage_text({ used = 12300, size = 1000000 }))
    assert.are.equal('ctx 500/1.0k (50%) · 0.25 USD', updates.usage_text({ used = 500, size = 1000, cost = { amount = 0.25, currency = 'USD' } }))
  end)
end)

describe('diff review', function()
  after_each(h.reset)

  it('hands back the proposed side exactly, final newline or not', function()
    local diff = require('companion.diff')
    local got = {}
    local function open(old, new)
      return diff.open({ path = '/tmp/x.lua', old_text = old, new_text = new,
        on_accept = function(text, changed, done) got = { text = text, changed = changed }; done(true) end,
        on_reject = function() got = { rejected = true } end })
    end
    local r = open(nil, 'a\nb')
    assert.are.same({ '' }, vim.api.nvim_buf_get_lines(r.old_buf, 0, -1, false), 'a new file: nothing on the left')
    assert.are.equal('lua', vim.bo[r.new_buf].filetype)
    r:accept()
    assert.are.same({ text = 'a\nb', changed = false }, got)
    r = open('x\n', 'y\n')
    vim.api.nvim_buf_set_lines(r.new_buf, 0, -1, false, { 'z', 'w' })
    r:accept()
    assert.are.same({ text = 'z\nw\n', changed = true }, got)
    r = open('x\n', 'y\n')
    vim.api.nvim_buf_delete(r.new_buf, { force = true })
    h.wait(function() return got.rejected end, 'closing the proposed side to reject')
    assert.are.equal(1, #vim.api.nvim_list_tabpages())
  end)
end)

describe('permission question keys', function()
  it('gives each kind its key, and o only when some option has none', function()
    local ask = require('companion.ask')
    local stop = { name = 'Reject and cancel the turn' }
    local keys = function(options)
      return table.concat(vim.tbl_map(function(c) return c.key end, ask.choices(options, stop)))
    end
    local once, always = { kind = 'allow_once', name = 'Allow' }, { kind = 'allow_always', name = 'Always' }
    local reject, never = { kind = 'reject_once', name = 'Reject' }, { kind = 'reject_always', name = 'Never' }
    assert.are.equal('ync', keys({ once, reject }))
    assert.are.equal('yanc', keys({ once, always, reject }))
    assert.are.equal('yanco', keys({ once, always, reject, never }))
    assert.are.equal('yanco', keys({ once, always, { kind = 'allow_always', name = 'In the project' }, reject }))
  end)
end)
