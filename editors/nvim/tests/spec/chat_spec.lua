-- The chat against the real agent: streamed text, thoughts folded, usage.
local h = require('helpers')

describe('chat', function()
  after_each(h.reset)

  it('opens, sends a prompt and streams the answer as markdown', function()
    h.start('stream')
    vim.cmd('Companion')
    local app = h.app()
    assert.is_true(app.chat:is_open())
    assert.are.equal('markdown', vim.bo[app.chat.buf].filetype)
    h.wait(function() return app.session ~= nil end, 'a session')
    vim.api.nvim_buf_set_lines(app.chat.input, 0, -1, false, { 'Say hello please' })
    app.chat:submit()
    h.wait_turn()
    local text = h.transcript()
    assert.matches('## You\nSay hello please', text, 1, true)
    assert.matches('## companion\nHello from **companion**.\nSecond line.', text, 1, true)
    assert.matches('> Thought\n> The user wants a greeting.', text, 1, true)
    assert.is_nil(text:find('Thinking…', 1, true), 'the header still says Thinking… after the turn')
    assert.are.equal('end_turn', app.last_stop)
  end)

  it("leaves what went where in the agent's debug log, and no key", function()
    local key = 'AIzaMARKED' .. 'KEY0123456789'
    local env = h.start('stream', { env = { GEMINI_API_KEY = key } })
    require('companion').open('Say hello, my key is ' .. key)
    h.wait_turn()
    local log = h.read_file(env.ws .. '/agent.log')
    assert.is_nil(log:find('AIzaMARKED', 1, true), 'the key is in the debug log')
    assert.matches('dir=in kind=request bytes=%d+ method=session/prompt id=%d+', log)
    assert.matches('dir=out kind=response bytes=%d+ method=session/prompt id=%d+ code=0', log)
    assert.matches('dir=out kind=notification bytes=%d+ method=session/update', log)
  end)

  it('conceals markdown marks in the transcript', function()
    h.start('stream')
    require('companion').open('Say hello')
    local app = h.app()
    h.wait_turn()
    app:note('_(session loaded)_')
    local lines = vim.api.nvim_buf_get_lines(app.chat.buf, 0, -1, false)
    local function find(text)
      for i, l in ipairs(lines) do
        local col = l:find(text, 1, true)
        if col then return i, col end
      end
      error('no line holds ' .. text .. ' in ' .. vim.inspect(lines))
    end
    vim.api.nvim_win_call(app.chat.win, function()
      assert.are.equal(2, vim.wo.conceallevel)
      local bold, bcol = find('**companion**')
      local note, ncol = find('_(session loaded)_')
      for _, at in ipairs({ { bold, bcol }, { bold, bcol + 1 }, { bold, bcol + 11 }, { note, ncol }, { note, ncol + 17 } }) do
        assert.are.equal(1, vim.fn.synconcealed(at[1], at[2])[1], ('line %d col %d concealed'):format(at[1], at[2]))
      end
      assert.are.equal(0, vim.fn.synconcealed(bold, bcol + 2)[1], 'the word itself shows')
    end)
  end)

  it('folds thoughts in the transcript window', function()
    h.start('stream')
    require('companion').open('Say hello')
    local app = h.app()
    h.wait_turn()
    local lines = vim.api.nvim_buf_get_lines(app.chat.buf, 0, -1, false)
    local header
    for i, l in ipairs(lines) do
      if l == '> Thought' then header = i end
    end
    assert.is_not_nil(header, 'thought header in ' .. vim.inspect(lines))
    vim.api.nvim_win_call(app.chat.win, function()
      assert.are.equal(header, vim.fn.foldclosed(header + 1))
      assert.are.equal(-1, vim.fn.foldclosed(header - 2))
    end)
  end)

  it('folds thoughts streamed while the prompt is in Insert mode', function()
    h.start('stream')
    vim.cmd('Companion')
    local app = h.app()
    vim.api.nvim_set_current_win(app.chat.input_win)
    -- The user sends with the Insert-mode key and stays in Insert mode
    -- while the answer streams; the timer leaves Insert mode once it ended.
    -- While still in Insert mode, the thought is folded already.
    local left, folded, typed = false, nil, 0
    local deadline = vim.loop.now() + h.WAIT_MS
    local timer = vim.loop.new_timer()
    timer:start(20, 20, vim.schedule_wrap(function()
      if not left and vim.loop.now() > deadline then -- the turn never ended: fail below
        left = 'late'
        vim.api.nvim_input('<Esc>')
        return
      end
      if left or app.busy ~= nil or not h.transcript():find('Second line', 1, true) then
        return
      end
      -- Ended: the user stays in Insert mode up to 10 ticks; the fold must close
      -- meanwhile (the folds follow each change on the next tick).
      vim.api.nvim_win_call(app.chat.win, function()
        local lines = vim.api.nvim_buf_get_lines(app.chat.buf, 0, -1, false)
        for i, l in ipairs(lines) do
          if l == '> Thought' then folded = vim.fn.foldclosed(i + 1) == i end
        end
      end)
      typed = typed + 1
      if folded or typed >= 10 then
        left = true
        vim.api.nvim_input('<Esc>')
      end
    end))
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('ASay hello<C-s>', true, false, true), 'x!', false)
    timer:stop()
    timer:close()
    assert.are.equal(true, left, 'the turn ended')
    assert.is_true(folded, 'the thought folded while the user types')
    vim.wait(50)
    local lines = vim.api.nvim_buf_get_lines(app.chat.buf, 0, -1, false)
    local header
    for i, l in ipairs(lines) do
      if l == '> Thought' then header = i end
    end
    assert.is_not_nil(header, 'thought header in ' .. vim.inspect(lines))
    vim.api.nvim_win_call(app.chat.win, function()
      assert.are.equal(1, vim.fn.foldlevel(header + 1))
      assert.are.equal(header, vim.fn.foldclosed(header + 1))
    end)
  end)

  it('shows the usage in the winbar or statusline', function()
    h.start('stream')
    require('companion').open('Say hello')
    h.wait_turn()
    local app = h.app()
    local opt = vim.fn.exists('+winbar') == 1 and 'winbar' or 'statusline'
    h.wait(function() return vim.wo[app.chat.win][opt]:find('ctx ', 1, true) end, 'usage in the ' .. opt)
    assert.matches('mode: ', vim.wo[app.chat.win][opt], 1, true)
  end)
end)

describe('verbatim', function()
  after_each(h.reset)

  it('shows commands and the user\'s words exactly as they run, markdown marks and all', function()
    h.start('arith')
    h.stub_select(h.by_kind('allow_once'))
    require('companion').open('Run the sum: echo qa-shell-$((6*7)) _x_ *y*')
    h.wait_turn()
    local app = h.app()
    app:note('Changed this turn: /tmp/_x_/a.txt (+1 −0), *y*.txt (new, +1 −0).')
    local lines = vim.api.nvim_buf_get_lines(app.chat.buf, 0, -1, false)
    local command = 'echo qa-shell-$((6*7)) _x_ *y*'
    local note = '/tmp/_x_/a.txt (+1 −0), *y*.txt'
    local shown, concealed, prose = 0, {}, nil
    vim.api.nvim_win_call(app.chat.win, function()
      for i, l in ipairs(lines) do
        local col = l:find(command, 1, true)
        local len = #command
        if not col then
          col, len = l:find(note, 1, true), #note
        end
        if col then
          shown = shown + 1
          for c = col, col + len - 1 do
            if vim.fn.synconcealed(i, c)[1] ~= 0 then
              concealed[#concealed + 1] = ('%q at column %d'):format(l, c)
            end
          end
        end
        -- The agent's own prose is still markdown.
        local bold = l:find('**then**', 1, true)
        if bold then
          prose = vim.fn.synconcealed(i, bold)[1]
        end
      end
    end)
    assert.are.same({}, concealed)
    assert.are.equal(1, prose, 'markdown in the agent text')
    assert.are.equal(3, shown, 'the prompt and the card show the command, the note the paths: ' .. vim.inspect(lines))
    assert.matches('│ qa-shell-42 _x_ *y*', h.transcript(), 1, true)
  end)
end)

describe('CompanionAdd', function()
  after_each(h.reset)

  it("quotes the selected lines into the prompt", function()
    local env = h.start('stream')
    -- (A .lua file: opening a .py file runs Neovim 0.7's Python ftplugin,
    -- which takes seconds here.)
    local path = env.project .. '/greet.lua'
    h.write_file(path, 'local M = {}\nfunction M.greet(name)\n  print("hi " .. name .. " ```")\nend\n')
    vim.cmd('edit ' .. vim.fn.fnameescape(path))
    -- The user selects lines 2-3 and runs the command on them.
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('2GVj:CompanionAdd<CR>', true, false, true), 'x', false)
    local app = h.app()
    assert.are.equal(app.chat.input, vim.api.nvim_get_current_buf())
    assert.are.same({ 'greet.lua lines 2-3:', '````lua', 'function M.greet(name)', '  print("hi " .. name .. " ```")', '````' },
      vim.api.nvim_buf_get_lines(app.chat.input, 0, -1, false))
    -- A second quote goes after the first; the user writes below.
    vim.api.nvim_set_current_win(vim.fn.bufwinid(path))
    vim.cmd('1CompanionAdd')
    local lines = vim.api.nvim_buf_get_lines(app.chat.input, 0, -1, false)
    assert.are.same({ '', 'greet.lua line 1:', '```lua', 'local M = {}', '```' }, vim.list_slice(lines, 6))
    assert.are.same({ #lines, 0 }, vim.api.nvim_win_get_cursor(0))
  end)
end)
