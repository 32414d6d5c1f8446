-- Rewind: :CompanionRewind / gR on a user message in the chat forks the
-- session before it, the agent restores the files, the fork is loaded and
-- the message goes back to the prompt. The journey runs against the real
-- binary when it advertises agentCapabilities._meta.companion.rewind.
local h = require('helpers')

-- keys types keys as a user does (termcodes replaced), to the end.
local function keys(s)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(s, true, false, true), 'x', false)
end

-- wire records the methods the plugin sends.
local function wire()
  local sent = {}
  return sent, function(dir, line)
    if dir == 'send' then
      sent[#sent + 1] = vim.json.decode(line).method
    end
  end
end

-- user_line returns the chat line of the user message holding text.
local function user_line(text)
  local lines = vim.api.nvim_buf_get_lines(h.app().chat.buf, 0, -1, false)
  for i, l in ipairs(lines) do
    if l:find(text, 1, true) then
      return i
    end
  end
  error('no line holds ' .. text .. ' in ' .. vim.inspect(lines))
end

-- send types a prompt in the prompt window and waits for the answer.
local function send(text, answer)
  vim.api.nvim_set_current_win(vim.fn.bufwinid(h.app().chat.input))
  keys('A' .. text .. '<C-s><Esc>')
  h.wait(function() return h.transcript():find(answer, 1, true) end, answer)
  h.wait_turn()
end

-- ready opens the chat and waits for the session in auto_edit (set before anything else).
local function ready()
  vim.cmd('Companion')
  local updates = require('companion.updates')
  h.wait(function()
    local s = h.app().session
    return s and updates.option_of(s.options, 'mode').currentValue == 'auto_edit'
  end, 'a session in auto_edit')
end

-- count returns how many times plain text occurs in s.
local function count(s, text)
  local n, at = 0, 1
  while true do
    local i = s:find(text, at, true)
    if not i then
      return n
    end
    n, at = n + 1, i + #text
  end
end

describe('rewind', function()
  after_each(h.reset)

  it('finds the user message under a line', function()
    local buf = vim.api.nvim_create_buf(false, true)
    local t = require('companion.transcript').new(buf)
    t:append_text('user', 'first')
    t:append_text('agent', 'answer one')
    t:append_text('user', 'second\nline two')
    t:append_text('agent', 'answer two')
    local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
    local at = function(text)
      for i, l in ipairs(lines) do
        if l == text then return t:user_index_at(i) end
      end
    end
    assert.are.equal(0, at('first'))
    assert.are.equal(1, at('line two'))
    assert.is_nil(at('answer two'))
    vim.api.nvim_buf_delete(buf, { force = true })
  end)

  it('turns the answer into the prompt text and a note', function()
    local app = require('companion.rewind')
    assert.are.equal('fix @a.go now', app.prompt_text({
      { type = 'text', text = 'fix @a.go now' },
      { type = 'resource', resource = { uri = 'file:///w/a.go', text = 'x' } },
    }))
    assert.matches('no files needed restoring', app.restored_note({}), 1, true)
    assert.matches('restored a.txt, sub/b.txt to before', app.restored_note({ vim.fn.getcwd() .. '/a.txt', vim.fn.getcwd() .. '/sub/b.txt' }), 1, true)
  end)

  it('gR on the second prompt restores the file, loads the fork and gives the prompt back', function()
    local sent, trace = wire()
    local env = h.start('rewind', { approval_mode = 'auto_edit', trace = trace })
    local file = env.project .. '/rewind.txt'
    h.write_file(file, 'original\n')
    ready()
    if not h.app().client:supports('rewind') then
      pending('the companion binary does not advertise rewind')
      return
    end
    send('rw-one: write the first version', 'Writing the first version.')
    h.wait(function() return h.read_file(file) == 'first version\n' end, 'the first version on disk')
    send('rw-two: write the second version', 'Writing the second version.')
    h.wait(function() return h.read_file(file) == 'second version\n' end, 'the second version on disk')
    local original = h.app().session.id
    local fbuf = vim.fn.bufadd(file)
    vim.fn.bufload(fbuf)
    assert.are.same({ 'second version' }, vim.api.nvim_buf_get_lines(fbuf, 0, -1, false))

    local asked = h.stub_select(function(items) return items[1] end)
    local chat = h.app().chat
    vim.api.nvim_set_current_win(chat.win)
    vim.api.nvim_win_set_cursor(chat.win, { user_line('rw-two: write the second version'), 0 })
    keys('gR')
    assert.are.equal(1, #asked, 'one confirmation')
    assert.matches('restored', asked[1].opts.prompt, 1, true)

    h.wait(function() return h.app().session.id ~= original and not h.app().session.loading end, 'the fork')
    h.wait(function() return h.transcript():find('Rewound', 1, true) end, 'the rewind note')
    assert.are.equal('first version\n', h.read_file(file))
    assert.are.same({ 'first version' }, vim.api.nvim_buf_get_lines(fbuf, 0, -1, false), 'the loaded buffer is read again')
    local text = h.transcript()
    assert.are.equal(1, count(text, '## You'), text)
    assert.matches('rw-one', text, 1, true)
    assert.matches('restored rewind.txt', text, 1, true)
    assert.are.same({ 'rw-two: write the second version' }, vim.api.nvim_buf_get_lines(chat.input, 0, -1, false))
    assert.is_true(vim.tbl_contains(sent, '_companion/session/rewind'))

    -- Rewinding again, in the fork: the prompt holds that one message, not
    -- both (Enter would send both).
    local fork = h.app().session.id
    vim.api.nvim_set_current_win(chat.win)
    vim.api.nvim_win_set_cursor(chat.win, { user_line('rw-one: write the first version'), 0 })
    keys('gR')
    h.wait(function() return h.app().session.id ~= fork and not h.app().session.loading end, 'the second fork')
    h.wait(function() return h.read_file(file) == 'original\n' end, 'the original on disk')
    h.wait(function() return not h.app().busy end, 'the rewind to end')
    h.wait(function() return vim.api.nvim_buf_get_lines(chat.input, 0, 1, false)[1] == 'rw-one: write the first version' end,
      'the first prompt back')
    assert.are.same({ 'rw-one: write the first version' }, vim.api.nvim_buf_get_lines(chat.input, 0, -1, false))
  end)

  it('does nothing but say so when the agent cannot rewind, or the cursor is not on a user message', function()
    local sent, trace = wire()
    h.start('rewind', { approval_mode = 'auto_edit', trace = trace })
    local notes = {}
    local notify = vim.notify
    vim.notify = function(msg) notes[#notes + 1] = msg end
    local ok, err = pcall(function()
      ready()
      send('rw-one: write the first version', 'Writing the first version.')
      local asked = h.stub_select(function() return nil end)
      local chat = h.app().chat
      vim.api.nvim_set_current_win(chat.win)
      local supported = h.app().client:supports('rewind')
      vim.api.nvim_win_set_cursor(chat.win, { user_line('Writing the first version.'), 0 })
      vim.cmd('CompanionRewind')
      assert.are.equal(0, #asked)
      assert.matches(supported and 'put the cursor on one of your messages' or 'cannot rewind', notes[#notes], 1, true)
      if supported then
        -- A dismissed confirmation sends nothing.
        vim.api.nvim_win_set_cursor(chat.win, { user_line('rw-one'), 0 })
        keys('gR')
        assert.are.equal(1, #asked)
      end
    end)
    vim.notify = notify
    assert(ok, err)
    assert.is_false(vim.tbl_contains(sent, '_companion/session/rewind'))
  end)

  it('shows the agent\'s error and keeps the chat when the rewind fails', function()
    local env = h.start('rewind', { approval_mode = 'auto_edit' })
    ready()
    if not h.app().client:supports('rewind') then
      pending('the companion binary does not advertise rewind')
      return
    end
    send('rw-one: write the first version', 'Writing the first version.')
    local file = env.project .. '/rewind.txt'
    h.wait(function() return vim.fn.filereadable(file) == 1 and h.read_file(file) == 'first version\n' end, 'the file')
    local app = h.app()
    local sid = app.session.id
    app:run_rewind(sid, 5) -- past the end: the agent refuses
    h.wait(function() return h.transcript():find('Could not rewind:', 1, true) end, 'the error in the chat')
    h.wait_turn()
    assert.are.equal(sid, app.session.id)
    assert.are.equal(1, count(h.transcript(), '## You'))
    assert.are.equal('first version\n', h.read_file(file))
  end)
end)
