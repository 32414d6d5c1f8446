-- Permissions, diffs, fs writes and terminals against the real agent.
local h = require('helpers')
local permission = require('companion.permission')

describe('tools', function()
  after_each(h.reset)

  it('asks with the request options and honours a rejection', function()
    local env = h.start('reject')
    local calls = h.stub_select(h.by_kind('reject_once'))
    require('companion').open('Make a file')
    h.wait_turn()
    assert.are.equal(1, #calls)
    local kinds = vim.tbl_map(function(o) return o.kind end, calls[1].items)
    assert.is_true(vim.tbl_contains(kinds, 'allow_once'), vim.inspect(kinds))
    assert.matches('touch made-by-agent.txt', calls[1].opts.prompt, 1, true)
    assert.are.equal(0, vim.fn.filereadable(env.project .. '/made-by-agent.txt'))
    assert.matches('⊘ [execute · rejected]', h.transcript(), 1, true)
    assert.is_nil(h.transcript():find('failed', 1, true))
    assert.matches('You said no.', h.transcript(), 1, true)
    assert.are.equal(0, permission.count())
  end)

  it('takes a dismissed permission list as a rejection of the call', function()
    local answers = {}
    local env = h.start('reject', { trace = function(dir, line)
      local m = dir == 'send' and vim.json.decode(line)
      if m and type(m.result) == 'table' and type(m.result.outcome) == 'table' then
        answers[#answers + 1] = m.result.outcome
      end
    end })
    local calls = h.stub_select(function() return nil end)
    require('companion').open('Make a file')
    h.wait_turn()
    assert.are.equal(1, #calls)
    assert.are.same({ { outcome = 'selected', optionId = 'reject_once' } }, answers)
    assert.are.equal(0, vim.fn.filereadable(env.project .. '/made-by-agent.txt'))
    assert.matches('⊘ [execute · rejected]', h.transcript(), 1, true)
    assert.matches('You said no.', h.transcript(), 1, true)
    assert.are.equal(0, permission.count())
  end)

  it('offers to reject the call and cancel the turn', function()
    local env = h.start('reject')
    local calls = h.stub_select(function(items)
      return items[#items]
    end)
    require('companion').open('Make a file')
    h.wait_turn()
    assert.are.equal('Reject and cancel the turn', calls[1].opts.format_item(calls[1].items[#calls[1].items]))
    assert.are.equal('cancelled', h.app().last_stop)
    assert.are.equal(0, vim.fn.filereadable(env.project .. '/made-by-agent.txt'))
    assert.is_nil(h.transcript():find('[execute · completed]', 1, true))
  end)

  it('asks in the chat without taking the keyboard; n there rejects', function()
    local env = h.start('reject', { permission_prompt = 'chat' })
    vim.cmd('Companion')
    local app = h.app()
    h.wait(function() return app.session ~= nil end, 'a session')
    local input_win = app.chat.input_win
    vim.api.nvim_set_current_win(input_win)
    -- The user sends and goes on typing while the question comes.
    local after, j, stolen = ' next one', 0, {}
    local deadline = vim.loop.now() + h.WAIT_MS
    local timer = vim.loop.new_timer()
    timer:start(15, 15, vim.schedule_wrap(function()
      if vim.api.nvim_get_current_win() ~= input_win or vim.api.nvim_get_mode().mode ~= 'i' then
        stolen[#stolen + 1] = vim.api.nvim_get_mode().mode
      end
      if j < #after and vim.loop.now() > deadline then -- no question came: stop typing, fail below
        j = #after
        vim.api.nvim_input('<Esc>')
        return
      end
      if j >= #after or not h.transcript():find('? [permission]', 1, true) then
        return
      end
      j = j + 1
      vim.api.nvim_input(after:sub(j, j))
      if j == #after then
        vim.defer_fn(function() vim.api.nvim_input('<Esc>') end, 30)
      end
    end))
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('AMake a file<C-s>', true, false, true), 'x!', false)
    timer:stop()
    timer:close()
    assert.are.same({}, stolen)
    assert.are.same({}, h.unexpected, 'no picker')
    assert.are.same({ ' next one' }, vim.api.nvim_buf_get_lines(app.chat.input, 0, -1, false))
    local text = h.transcript()
    assert.matches('? [permission] touch made-by-agent.txt\n', text, 1, true)
    assert.matches('\n  y  Allow this time\n', text, 1, true)
    assert.matches('\n  n  Reject\n', text, 1, true)
    assert.matches('\n  c  Reject and cancel the turn\n', text, 1, true)
    assert.matches('permission: y/a/n/c in the chat', app.chat.status, 1, true)
    -- The user goes to the chat and answers n.
    vim.api.nvim_set_current_win(app.chat.win)
    vim.api.nvim_feedkeys('n', 'x', false)
    h.wait_turn()
    assert.are.equal(0, vim.fn.filereadable(env.project .. '/made-by-agent.txt'))
    text = h.transcript()
    assert.matches('• [permission] touch made-by-agent.txt → Reject\n', text, 1, true)
    assert.matches('⊘ [execute · rejected]', text, 1, true)
    assert.is_nil(text:find('\n  y  Allow this time', 1, true))
    assert.are.equal(app.chat.buf, vim.api.nvim_get_current_buf())
    assert.are.equal(0, vim.fn.maparg('n', 'n', false, true).buffer or 0, 'the answer keys are gone')
  end)

  it("asks in the chat when vim.ui.select is Neovim's own; y there allows", function()
    h.start('shell')
    vim.ui.select = h.original_select
    require('companion').open('Run it')
    h.wait(function() return h.transcript():find('? [permission]', 1, true) end, 'the question')
    local app = h.app()
    vim.api.nvim_set_current_win(app.chat.win)
    vim.api.nvim_feedkeys('y', 'x', false)
    h.wait_turn()
    assert.matches('→ Allow this time', h.transcript(), 1, true)
    assert.matches('The command printed its line.', h.transcript(), 1, true)
  end)

  it('opens a diff tab for an edit; the accepted user change lands in the buffer and file', function()
    local env = h.start('edit')
    local path = env.project .. '/notes.txt'
    h.write_file(path, 'first line\nhello world\nlast line\n')
    vim.cmd('edit ' .. vim.fn.fnameescape(path))
    local target = vim.api.nvim_get_current_buf()
    local calls = h.stub_select(h.by_kind('allow_once'))
    require('companion').open('Fix the note')
    local diff = require('companion.diff')
    h.wait(function() return diff.current() ~= nil end, 'the review')
    local review = diff.current()
    assert.are.equal(1, #vim.api.nvim_list_tabpages(), 'the review waits without a tab')
    assert.is_true(require('companion').review())
    assert.are.equal(2, #vim.api.nvim_list_tabpages())
    -- Readable tab labels, not "c/p/1/notes.txt" or "c//prompt".
    local tabs = vim.api.nvim_eval_statusline(vim.o.tabline, { use_tabline = true }).str
    assert.matches('review notes.txt', tabs, 1, true)
    assert.matches('companion chat', tabs, 1, true)
    assert.is_nil(tabs:find('//', 1, true), tabs)
    assert.is_true(vim.wo[review.old_win].diff and vim.wo[review.new_win].diff, 'both sides in diff mode')
    local bar = vim.wo[review.new_win][vim.fn.exists('+winbar') == 1 and 'winbar' or 'statusline']
    assert.are.equal('Proposed (editable): ga or :w allow, gr reject, do takes a hunk back', bar)
    assert.are.same({ 'first line', 'hello world', 'last line' }, vim.api.nvim_buf_get_lines(review.old_buf, 0, -1, false))
    assert.are.same({ 'first line', 'hello there', 'last line' }, vim.api.nvim_buf_get_lines(review.new_buf, 0, -1, false))
    -- The user improves the proposal, then accepts.
    vim.api.nvim_buf_set_lines(review.new_buf, 1, 2, false, { 'hello from nvim' })
    review:accept()
    h.wait_turn()
    assert.are.equal(1, #vim.api.nvim_list_tabpages())
    assert.is_true(#calls >= 1)
    -- The agent's own words, the scope in plain words, no relabelling.
    assert.matches('^Allow this edit: ', calls[1].opts.prompt)
    local names = vim.tbl_map(function(o) return calls[1].opts.format_item(o) end, calls[1].items)
    assert.are.same({ 'Allow this time', 'Allow edits to notes.txt for this session', 'Allow all edits for this session',
      'Allow edits to notes.txt in this project' }, names)
    assert.are.same({ 'first line', 'hello from nvim', 'last line' }, vim.api.nvim_buf_get_lines(target, 0, -1, false))
    assert.is_false(vim.bo[target].modified)
    assert.are.equal('first line\nhello from nvim\nlast line\n', h.read_file(path))
    assert.matches('Edited the note.', h.transcript(), 1, true)
    assert.matches('[edit · completed]', h.transcript(), 1, true)
    -- The card shows the whole short diff, not its headers and "… N more lines".
    assert.matches('  edit notes.txt (+1 −1)\n  @@ -1,3 +1,3 @@\n   first line\n  -hello world\n  +hello from nvim\n   last line\n', h.transcript(), 1, true)
    -- Said once, without markdown fences.
    assert.is_nil(h.transcript():find('```', 1, true))
    assert.is_nil(h.transcript():find('**Edited**', 1, true))
    assert.is_nil(h.transcript():find('more lines', 1, true))
    -- The edit is one undo step in the buffer.
    vim.api.nvim_buf_call(target, function() vim.cmd('silent undo') end)
    assert.are.same({ 'first line', 'hello world', 'last line' }, vim.api.nvim_buf_get_lines(target, 0, -1, false))
  end)

  it('keeps the keys of a user typing the next prompt out of the review, which opens on request', function()
    local env = h.start('edit')
    local path = env.project .. '/notes.txt'
    h.write_file(path, 'first line\nhello world\nlast line\n')
    h.stub_select(h.by_kind('allow_once'))
    vim.cmd('Companion')
    local app = h.app()
    h.wait(function() return app.session ~= nil end, 'a session')
    local input_win = app.chat.input_win
    vim.api.nvim_set_current_win(input_win)
    local diff = require('companion.diff')
    -- The user sends a prompt from Insert mode and goes on typing the next
    -- one, a key every 15 ms, while the agent works; the typing goes on
    -- for a few keys after the edit arrived, then the user leaves Insert
    -- mode. Each tick records where the keys would land.
    local first, after = 'now the docs', ' and docs'
    local k, j, stolen = 0, 0, {}
    local deadline = vim.loop.now() + h.WAIT_MS
    local timer = vim.loop.new_timer()
    timer:start(15, 15, vim.schedule_wrap(function()
      if vim.api.nvim_get_current_win() ~= input_win or vim.api.nvim_get_mode().mode ~= 'i' then
        stolen[#stolen + 1] = vim.api.nvim_buf_get_name(0) .. ' ' .. vim.api.nvim_get_mode().mode
      end
      if j >= #after then
        return
      end
      if vim.loop.now() > deadline then -- no edit came: stop typing, fail below
        j = #after
        vim.api.nvim_input('<Esc>')
        return
      end
      if #diff.pending() == 0 then
        if k < #first then
          k = k + 1
          vim.api.nvim_input(first:sub(k, k))
        end
        return
      end
      j = j + 1
      vim.api.nvim_input(after:sub(j, j))
      if j == #after then
        vim.defer_fn(function() vim.api.nvim_input('<Esc>') end, 30)
      end
    end))
    -- Returns once the user leaves Insert mode.
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('AFix the note<C-s>', true, false, true), 'x!', false)
    timer:stop()
    timer:close()
    assert.are.same({}, stolen, 'the review took the focus')
    local typed = table.concat(vim.api.nvim_buf_get_lines(app.chat.input, 0, -1, false), '\n')
    assert.matches(' and docs$', typed)
    local review = diff.current()
    assert.is_not_nil(review, 'the review waits')
    assert.are.same({ 'first line', 'hello there', 'last line' }, vim.api.nvim_buf_get_lines(review.new_buf, 0, -1, false))
    assert.are.equal(1, #vim.api.nvim_list_tabpages())
    assert.are.equal('first line\nhello world\nlast line\n', h.read_file(path))
    assert.matches('✎ Edit of notes.txt waits for your review: :CompanionReview opens it', h.transcript(), 1, true)
    assert.matches(':CompanionReview (1)', app.chat.status, 1, true)
    -- On request the review opens, in Normal mode, where ga allows.
    vim.cmd('CompanionReview')
    assert.are.equal(2, #vim.api.nvim_list_tabpages())
    assert.are.equal(review.new_buf, vim.api.nvim_get_current_buf())
    assert.are.equal('n', vim.api.nvim_get_mode().mode)
    vim.api.nvim_feedkeys('ga', 'x', false)
    h.wait_turn()
    assert.are.equal('first line\nhello there\nlast line\n', h.read_file(path))
    assert.is_nil(diff.current())
    assert.are.equal(1, #vim.api.nvim_list_tabpages())
    -- Decided: the notice is gone, the card tells, the status lets go.
    h.wait(function() return not h.transcript():find('waits for your review', 1, true) end, 'the notice to go')
    assert.matches('✓ [edit · completed]', h.transcript(), 1, true)
    assert.is_nil(h.transcript():find('\n\n\n', 1, true), 'no blank lines left behind')
    assert.is_nil(app.chat.status:find('CompanionReview', 1, true))
  end)

  it('takes one hunk back with do and writes exactly what the user kept', function()
    local env = h.start('hunks')
    local path = env.project .. '/ends.txt'
    h.write_file(path, 'alpha\nb\nc\nd\ne\nf\ng\nh\nomega\n')
    h.stub_select(h.by_kind('allow_once'))
    require('companion').open('Shout the ends')
    local diff = require('companion.diff')
    h.wait(function() return diff.current() ~= nil end, 'the review')
    vim.cmd('CompanionReview')
    local review = diff.current()
    assert.are.equal(review.new_win, vim.api.nvim_get_current_win())
    -- On the first hunk of the proposed side, "do" takes the current text
    -- back for it; the second hunk stays as proposed. Then ga.
    vim.api.nvim_feedkeys('ggdoga', 'x', false)
    h.wait_turn()
    assert.are.equal('alpha\nb\nc\nd\ne\nf\ng\nh\nOMEGA\n', h.read_file(path))
    assert.matches('Wrote what you kept.', h.transcript(), 1, true)
  end)

  it('rejecting the diff leaves the file alone', function()
    local env = h.start('edit')
    local path = env.project .. '/notes.txt'
    h.write_file(path, 'hello world\n')
    local listed = #vim.fn.getbufinfo({ buflisted = 1 })
    require('companion').open('Fix the note')
    local diff = require('companion.diff')
    h.wait(function() return diff.current() ~= nil end, 'the diff tab')
    diff.current():reject()
    h.wait_turn()
    assert.are.equal(listed, #vim.fn.getbufinfo({ buflisted = 1 }), 'no buffer left behind')
    assert.are.equal('hello world\n', h.read_file(path))
    assert.matches('⊘ [edit · rejected]', h.transcript(), 1, true)
    assert.is_nil(h.transcript():find('[edit · failed]', 1, true))
    -- In a neutral highlight, not the failure one.
    local groups = vim.tbl_map(function(m) return m.group end, vim.fn.getmatches(h.app().chat.win))
    assert.is_true(vim.tbl_contains(groups, 'CompanionToolDeclined'), vim.inspect(groups))
  end)

  it('runs an allowed command in a terminal buffer', function()
    h.start('shell')
    h.stub_select(h.by_kind('allow_once'))
    require('companion').open('Run it')
    h.wait_turn()
    local app = h.app()
    local t = app.terminals:find('term-1')
    assert.is_not_nil(t, 'terminal term-1')
    assert.are.equal('terminal', vim.bo[t.buf].buftype)
    h.wait(function()
      local shown = table.concat(vim.api.nvim_buf_get_lines(t.buf, 0, -1, false), '\n')
      return shown:find('from-the-terminal', 1, true) and shown:find('on-stderr', 1, true)
    end, 'stdout and stderr in the terminal buffer')
    assert.are.equal(0, t.exit_code)
    assert.is_true(t.released)
    local text = h.transcript()
    assert.matches('[execute · completed]', text, 1, true)
    -- The finished card keeps the terminal, which shows the output.
    assert.matches('terminal term-1', text, 1, true)
    assert.matches('│ from-the-terminal', text, 1, true)
    assert.matches('The command printed its line.', text, 1, true)
  end)
end)

describe('live terminal', function()
  after_each(h.reset)

  it('shows the running output in the card and opens the terminal', function()
    local env = h.start('live', { terminal = { open = true } })
    h.stub_select(h.by_kind('allow_once'))
    require('companion').open('Watch it')
    h.wait(function()
      local text = h.transcript()
      return text:find('[execute · in_progress]', 1, true) and text:find('│ first-line', 1, true)
    end, 'the live output in the card')
    assert.matches('terminal term-1', h.transcript(), 1, true)
    local t = h.app().terminals:find('term-1')
    assert.are_not.equal(-1, vim.fn.bufwinid(t.buf), 'the terminal is shown in a window')
    h.write_file(env.project .. '/go', '')
    h.wait_turn()
    assert.matches('Both lines seen.', h.transcript(), 1, true)
    assert.are.equal('first-line\nsecond-line\n', h.app().terminals:tail('term-1', 100))
    assert.are.equal('line\n', h.app().terminals:tail('term-1', 5))
  end)

  it('follows a tool call card to its file and line', function()
    local env = h.start('edit', { approval_mode = 'auto_edit' })
    local path = env.project .. '/notes.txt'
    h.write_file(path, 'first line\nhello world\nlast line\n')
    vim.cmd('edit ' .. path)
    require('companion').open('Fix the note')
    h.wait_turn()
    local app = h.app()
    local lines = vim.api.nvim_buf_get_lines(app.chat.buf, 0, -1, false)
    local card
    for i, l in ipairs(lines) do
      if l:find('[edit · completed]', 1, true) then card = i end
    end
    assert.is_not_nil(card, 'the edit card')
    assert.are.equal('hello there', vim.api.nvim_buf_get_lines(vim.fn.bufnr(path), 1, 2, false)[1])
    vim.api.nvim_set_current_win(app.chat.win)
    vim.api.nvim_win_set_cursor(app.chat.win, { card, 0 })
    require('companion.follow').tool_call(app, app.chat.transcript:tool_at(card))
    assert.are.equal(path, vim.api.nvim_buf_get_name(0))
    assert.are.equal(2, vim.api.nvim_win_get_cursor(0)[1])
  end)
end)

describe('plan', function()
  after_each(h.reset)

  it('shows the agent plan as a checklist', function()
    h.start('plan')
    require('companion').open('Plan it')
    h.wait_turn()
    local text = h.transcript()
    assert.matches('### Plan\n- [x] Read the code\n- [~] Change the code  ← in progress\n- [ ] Run the tests', text, 1, true)
    assert.matches('Plan written.', text, 1, true)
  end)
end)

describe('loop detection', function()
  after_each(h.reset)

  it('shows the blocked repeat as a neutral card between two separate messages', function()
    h.start('loop')
    require('companion').open('Loop please')
    h.wait_turn()
    local text = h.transcript()
    assert.matches('⊘ [search · blocked]', text, 1, true)
    assert.matches('Blocked as a repeat', text, 1, true)
    assert.is_nil(text:find('· failed]', 1, true), 'a blocked call is no failure')
    -- The card stands between the message before it and the one after the
    -- nudge: "Trying something else." starts a message of its own.
    -- One header for the turn: the text after a card goes on under it.
    assert.matches('⊘ %[search · blocked%][^\n]*\n.-\n\nTrying something else%.', text)
    local _, headers = text:gsub('## companion', '')
    assert.are.equal(1, headers, text)
    local win = h.app().chat.win
    vim.api.nvim_win_call(win, function()
      local found = false
      for _, m in ipairs(vim.fn.getmatches()) do
        if m.group == 'CompanionToolDeclined' and m.pattern:find('blocked', 1, true) then found = true end
      end
      assert.is_true(found, 'blocked cards are drawn in the neutral style')
    end)
  end)
end)

describe('changed this turn', function()
  after_each(h.reset)

  it('lists the files a turn changed until looked at; x reverts one, <CR> diffs one, R reverts all', function()
    local env = h.start('multi', { approval_mode = 'auto_edit' })
    local one, two = env.project .. '/one.txt', env.project .. '/two.txt'
    h.write_file(one, 'one\n')
    require('companion').open('Change both')
    h.wait_turn()
    assert.are.equal('one changed\n', h.read_file(one))
    assert.are.equal('two made\n', h.read_file(two))
    local app = h.app()
    assert.matches('Changed this turn: one.txt (+1 −1), two.txt (new, +1 −0). :CompanionChanges', h.transcript(), 1, true)
    h.wait(function() return app.chat.status:find(':CompanionChanges (2 files)', 1, true) end, 'the status')
    vim.cmd('CompanionChanges')
    assert.is_nil(app.chat.status:find('CompanionChanges', 1, true), 'looked at: the status lets go')
    assert.are.equal(2, #vim.api.nvim_list_tabpages())
    local list = vim.api.nvim_get_current_buf()
    assert.are.same({ '  one.txt  +1 −1', '  two.txt  new file +1 −0' }, vim.api.nvim_buf_get_lines(list, 1, -1, false))
    -- <CR> on one.txt: the file against its text before the turn.
    vim.api.nvim_win_set_cursor(0, { 2, 0 })
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('<CR>', true, false, true), 'x', false)
    assert.are.equal(one, vim.api.nvim_buf_get_name(0))
    local diffs = vim.tbl_filter(function(w) return vim.wo[w].diff end, vim.api.nvim_tabpage_list_wins(0))
    assert.are.equal(2, #diffs)
    -- x on two.txt removes the file the turn made.
    vim.api.nvim_set_current_win(vim.fn.bufwinid(list))
    vim.api.nvim_win_set_cursor(0, { 3, 0 })
    vim.api.nvim_feedkeys('x', 'x', false)
    assert.are.equal(0, vim.fn.filereadable(two))
    assert.are.same({ '  one.txt  +1 −1', '  two.txt  reverted' }, vim.api.nvim_buf_get_lines(list, 1, -1, false))
    -- R reverts the rest and closes the list.
    vim.api.nvim_feedkeys('R', 'x', false)
    assert.are.equal('one\n', h.read_file(one))
    assert.are.equal(1, #vim.api.nvim_list_tabpages())
  end)
end)
