-- Context, cancel, session list/load, config options, commands, mentions.
local h = require('helpers')

-- wire records the messages the plugin sends, decoded.
local function wire()
  local sent = {}
  return sent, function(dir, line)
    if dir == 'send' then
      sent[#sent + 1] = vim.json.decode(line)
    end
  end
end

-- of_method returns the sent messages of a method.
local function of_method(sent, method)
  return vim.tbl_filter(function(m) return m.method == method end, sent)
end

-- restart has one conversation in a fresh folder, then restarts the
-- plugin there (opts for its setup), and returns that session's id.
local function restart(opts)
  local env = h.start('stream')
  require('companion').open('Say hello')
  h.wait_turn()
  local sid = h.app().session.id
  h.reset()
  h.start('stream', opts, env)
  return sid
end

describe('session', function()
  after_each(h.reset)

  it('sends the IDE context after a cursor move, and the model gets it', function()
    local sent, trace = wire()
    local env = h.start('context', { trace = trace })
    local path = env.project .. '/notes.txt'
    h.write_file(path, 'one\ntwo two\nthree\n')
    vim.cmd('edit ' .. vim.fn.fnameescape(path))
    local file_win = vim.api.nvim_get_current_win()
    vim.cmd('Companion')
    h.wait(function() return h.app().session ~= nil end, 'a session')
    vim.api.nvim_set_current_win(file_win)
    vim.api.nvim_win_set_cursor(file_win, { 2, 3 })
    vim.api.nvim_exec_autocmds('CursorMoved', {})
    local update
    h.wait(function()
      for _, m in ipairs(of_method(sent, '_companion/ide/contextUpdate')) do
        local f = m.params.openFiles[1]
        if f and f.cursor and f.cursor.line == 1 and f.cursor.character == 3 then
          update = m.params
          return true
        end
      end
    end, 'a context update with the new cursor')
    assert.are.equal(h.app().session.id, update.sessionId)
    assert.is_true(update.openFiles[1].isActive)
    assert.are.equal('file://' .. path, update.openFiles[1].uri)
    assert.are.equal('file://' .. env.project, update.workspaceFolders[1].uri)
    assert.is_nil(update.id, 'a notification has no id')
    -- The model's request carries it (the script answers only then).
    h.app():submit('Where am I?')
    h.wait_turn()
    assert.matches('I see your cursor on line 2.', h.transcript(), 1, true)
  end)

  it('sends the visual selection and diagnostics', function()
    local sent, trace = wire()
    local env = h.start('context', { trace = trace })
    h.write_file(env.project .. '/a.txt', 'alpha\nbeta gamma\n')
    vim.cmd('edit ' .. env.project .. '/a.txt')
    local buf = vim.api.nvim_get_current_buf()
    local ns = vim.api.nvim_create_namespace('companion_test')
    vim.diagnostic.set(ns, buf, { { lnum = 1, col = 5, end_lnum = 1, end_col = 10, severity = 1, message = 'bad gamma' } })
    vim.cmd('Companion')
    h.wait(function() return h.app().session ~= nil end, 'a session')
    vim.cmd('wincmd t')
    vim.api.nvim_win_set_cursor(0, { 2, 0 })
    vim.cmd('normal! vee')
    h.app().tracker:observe()
    h.app().tracker:flush()
    local p = of_method(sent, '_companion/ide/contextUpdate')
    p = p[#p].params
    assert.are.equal('beta gamma', p.openFiles[1].selectedText)
    assert.are.same({ line = 1, character = 0 }, p.openFiles[1].selection.start)
    assert.are.equal('bad gamma', p.diagnostics[1].diagnostics[1].message)
    assert.are.equal(1, p.diagnostics[1].diagnostics[1].severity)
    vim.cmd('normal! \27')
  end)

  it('cancels a running turn', function()
    h.start('hang')
    require('companion').open('Think forever')
    h.wait(function() return h.transcript():find('Starting to think', 1, true) end, 'the first chunk')
    -- A progress line at the end of the chat itself while the agent works.
    local tail = 'Starting to think\n\n⋯ working… (<C-c> cancels)'
    assert.are.equal(tail, h.transcript():sub(-#tail))
    assert.is_true(require('companion').cancel())
    h.wait_turn()
    assert.is_nil(h.transcript():find('working…', 1, true), 'the progress line is gone')
    assert.are.equal('cancelled', h.app().last_stop)
    assert.matches('(turn ended: cancelled)', h.transcript(), 1, true)
  end)

  it('answers a pending permission with cancelled when the turn is cancelled', function()
    local sent, trace = wire()
    local env = h.start('edit', { trace = trace })
    h.write_file(env.project .. '/notes.txt', 'hello world\n')
    require('companion').open('Fix the note')
    local diff = require('companion.diff')
    h.wait(function() return diff.current() ~= nil end, 'the diff tab')
    vim.cmd('CompanionCancel')
    h.wait_turn()
    assert.is_nil(diff.current())
    assert.are.equal(1, #vim.api.nvim_list_tabpages())
    assert.are.equal('cancelled', h.app().last_stop)
    local answered = vim.tbl_filter(function(m)
      return m.result and type(m.result.outcome) == 'table' and m.result.outcome.outcome == 'cancelled'
    end, sent)
    assert.are.equal(1, #answered)
    assert.are.equal(1, #of_method(sent, 'session/cancel'))
    assert.are.equal('hello world\n', h.read_file(env.project .. '/notes.txt'))
    -- The card says cancelled (the agent's final update included), not failed.
    assert.matches('⊘ [edit · cancelled]', h.transcript(), 1, true)
    assert.is_nil(h.transcript():find('failed', 1, true))
  end)

  it('lists and loads a saved session after a restart, replaying it', function()
    local sid = restart(nil)
    local calls = h.stub_select(function(items)
      for _, s in ipairs(items) do
        if s.sessionId == sid then return s end
      end
    end)
    vim.cmd('CompanionSessions')
    h.wait(function() return h.app().session and h.app().session.id == sid and not h.app().session.loading end,
      'the session to load')
    assert.are.equal(1, #calls)
    local text = h.transcript()
    assert.matches('## You\nSay hello', text, 1, true)
    assert.matches('Hello from **companion**.\nSecond line.', text, 1, true)
    assert.matches('(session loaded)', text, 1, true)
  end)

  it('resumes the last conversation of the folder when the chat starts after a restart', function()
    local sid = restart(nil)
    vim.cmd('Companion')
    h.wait(function() return h.app().session and not h.app().session.loading and h.transcript():find('Resumed', 1, true) end,
      'the session to come back')
    assert.are.equal(sid, h.app().session.id)
    local text = h.transcript()
    assert.matches('## You\nSay hello', text, 1, true)
    assert.matches('Hello from **companion**.', text, 1, true)
    assert.matches('(Resumed the last conversation of this folder', text, 1, true)
    assert.are.same({}, h.unexpected, 'no picker')
    -- gn still starts a fresh one.
    require('companion').new_session()
    h.wait(function() return h.app().session and h.app().session.id ~= sid end, 'a new session')
    assert.is_nil(h.transcript():find('Say hello', 1, true))
  end)

  it('starts a new session when resume is off', function()
    local sid = restart({ resume = false })
    vim.cmd('Companion')
    h.wait(function() return h.app().session ~= nil end, 'a session')
    assert.are_not.equal(sid, h.app().session.id)
  end)

  it('picks the mode from the config options', function()
    local sent, trace = wire()
    h.start('stream', { trace = trace })
    vim.cmd('Companion')
    h.wait(function() return h.app().session ~= nil end, 'a session')
    h.stub_select(function(items)
      for _, v in ipairs(items) do
        if v.value == 'auto_edit' then return v end
      end
    end)
    require('companion').pick_mode()
    local updates = require('companion.updates')
    h.wait(function()
      return updates.option_of(h.app().session.options, 'mode').currentValue == 'auto_edit'
    end, 'the mode to change')
    local set = of_method(sent, 'session/set_config_option')
    assert.are.same({ 'mode', 'auto_edit' }, { set[1].params.configId, set[1].params.value })
    assert.matches('mode: Auto edit', h.app().chat.status, 1, true)
  end)

  it('applies approval_mode from setup to new sessions', function()
    h.start('stream', { approval_mode = 'yolo' })
    vim.cmd('Companion')
    local updates = require('companion.updates')
    h.wait(function()
      return updates.option_of(h.app().session.options, 'mode').currentValue == 'yolo'
    end, 'the yolo mode')
  end)

  it('completes slash commands the agent announced', function()
    h.start('stream')
    vim.cmd('Companion')
    local complete = require('companion.complete')
    h.wait(function() return #complete.get_commands() > 0 end, 'available commands')
    local input = h.app().chat.input
    assert.are.equal("v:lua.require'companion.complete'.omnifunc", vim.bo[input].omnifunc)
    vim.api.nvim_buf_set_lines(input, 0, -1, false, { '/he' })
    vim.api.nvim_win_set_cursor(0, { 1, 3 })
    assert.are.equal(0, complete.omnifunc(1, ''))
    local words = vim.tbl_map(function(i) return i.word end, complete.omnifunc(0, '/he'))
    assert.is_true(vim.tbl_contains(words, '/help'), vim.inspect(words))
  end)

  it('sends @file mentions as resources with the unsaved buffer text', function()
    local sent, trace = wire()
    local env = h.start('mention', { trace = trace })
    h.write_file(env.project .. '/doc.txt', 'saved text\n')
    vim.cmd('edit ' .. env.project .. '/doc.txt')
    vim.api.nvim_buf_set_lines(0, 0, -1, false, { 'unsaved-marker-42' })
    require('companion').open('Explain @doc.txt please')
    h.wait_turn()
    local prompt = of_method(sent, 'session/prompt')[1].params.prompt
    assert.are.equal('text', prompt[1].type)
    assert.are.equal('resource', prompt[2].type)
    assert.are.equal('file://' .. env.project .. '/doc.txt', prompt[2].resource.uri)
    assert.are.equal('unsaved-marker-42\n', prompt[2].resource.text)
    assert.matches('The file says what your buffer says.', h.transcript(), 1, true)
  end)

  it('serves fs/read_text_file from the unsaved buffer', function()
    local env = h.start('read')
    h.write_file(env.project .. '/config.txt', 'on disk\n')
    vim.cmd('edit ' .. env.project .. '/config.txt')
    vim.api.nvim_buf_set_lines(0, 0, -1, false, { 'edited-in-buffer' })
    require('companion').open('Read the config')
    h.wait_turn()
    assert.matches('It holds your unsaved edit.', h.transcript(), 1, true)
    assert.matches('[read · completed]', h.transcript(), 1, true)
  end)
end)

describe('pickers', function()
  after_each(h.reset)

  it('sets the mode with session/set_mode when the agent has no mode option', function()
    local sent, trace = wire()
    h.start('stream', { trace = trace })
    vim.cmd('Companion')
    h.wait(function() return h.app().session ~= nil end, 'a session')
    local s = h.app().session
    assert.is_table(s.modes, 'the agent sends legacy modes too')
    s.options = vim.tbl_filter(function(o) return o.category ~= 'mode' end, s.options)
    h.stub_select(function(items)
      for _, m in ipairs(items) do
        if m.id == 'plan' then return m end
      end
    end)
    require('companion').pick_mode()
    h.wait(function() return s.modes.currentModeId == 'plan' end, 'the mode to change')
    local set = of_method(sent, 'session/set_mode')
    assert.are.equal('plan', set[1].params.modeId)
  end)

  it('picks the model through the option list', function()
    local sent, trace = wire()
    h.start('stream', { trace = trace })
    vim.cmd('Companion')
    h.wait(function() return h.app().session ~= nil end, 'a session')
    h.stub_select(function(items)
      for _, v in ipairs(items) do
        if v.category == 'model' or v.value == 'gemini-2.5-flash' then return v end
      end
    end)
    require('companion').pick_option()
    h.wait(function() return #of_method(sent, 'session/set_config_option') == 1 end, 'set_config_option')
    local p = of_method(sent, 'session/set_config_option')[1].params
    assert.are.same({ 'model', 'gemini-2.5-flash' }, { p.configId, p.value })
    h.wait(function() return h.app().chat.status:find('model: gemini-2.5-flash', 1, true) end, 'the status')
  end)
end)

describe('agent exit', function()
  after_each(h.reset)

  it('ends the turn and says so when the agent dies, and a new prompt restarts it', function()
    h.start('hang')
    require('companion').open('Think forever')
    h.wait(function() return h.transcript():find('Starting to think', 1, true) end, 'the first chunk')
    vim.fn.jobstop(h.app().client.job)
    h.wait(function() return h.transcript():find('The agent exited', 1, true) end, 'the exit note')
    assert.is_nil(h.app().busy)
    assert.is_nil(h.app().client)
    vim.cmd('Companion')
    h.wait(function() return h.app().session ~= nil end, 'a new session')
  end)

  it('drops the edit waiting for review when the agent dies', function()
    local env = h.start('edit')
    h.write_file(env.project .. '/notes.txt', 'hello world\n')
    require('companion').open('Fix the note')
    local diff = require('companion.diff')
    h.wait(function() return #diff.pending() == 1 end, 'the review')
    vim.fn.jobstop(h.app().client.job)
    h.wait(function() return h.transcript():find('The agent exited', 1, true) end, 'the exit note')
    assert.are.equal(0, #diff.pending())
    assert.are.equal(0, require('companion.permission').count())
    h.wait(function() return not h.transcript():find('waits for your review', 1, true) end, 'the notice to go')
    assert.is_nil(h.app().chat.status:find('CompanionReview', 1, true))
    assert.are.equal('hello world\n', h.read_file(env.project .. '/notes.txt'))
  end)
end)
