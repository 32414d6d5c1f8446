-- Plans the user approves (exit_plan_mode) and questions the model asks
-- (ask_user), against the real agent: the plan shown whole on its card,
-- each choice leading to its mode, and a question form answered.
local h = require('helpers')

-- plan_steps are the plan's list items, as the plan block shows them.
local plan_steps = { 'Write **v1** to `f.txt`', 'Update the changelog', 'Tag the release', 'Build it', 'Run the tests',
  'Check the tag', 'Tell the user' }

describe('plan mode', function()
  after_each(h.reset)

  it('shows the whole plan on a mode-switch card with the three choices', function()
    h.start('planapproval', { approval_mode = 'plan' })
    local card
    local calls = h.stub_select(function(items)
      card = h.transcript()
      return h.by_kind('allow_always')(items)
    end)
    require('companion').open('Bump the version')
    h.wait_turn()
    assert.are.equal(1, #calls)
    assert.are.equal('Ready to start: approve the plan', calls[1].opts.prompt)
    assert.are.same({ 'Start, accepting edits automatically', 'Start, asking before each edit', 'Keep planning',
      'Reject and cancel the turn' }, vim.tbl_map(calls[1].opts.format_item, calls[1].items))
    assert.matches('[switch_mode · pending] Ready to start: approve the plan', card, 1, true)
    assert.matches('  # Bump the version\n', card, 1, true)
    for _, step in ipairs(plan_steps) do
      assert.matches(step, card, 1, true)
    end
    assert.is_nil(card:find('more lines', 1, true), card)
  end)

  for _, case in ipairs({
    { kind = 'allow_always', mode = 'mode: Auto edit', says = 'Starting with edits accepted.', plan = true },
    { kind = 'allow_once', mode = 'mode: Default', says = 'Starting, asking before edits.', plan = true },
    { kind = 'reject_once', mode = 'mode: Plan', says = 'Still planning, as noted.', note = 'split step 1' },
  }) do
    it('answered ' .. case.kind .. ' leads to ' .. case.mode, function()
      h.start('planapproval', { approval_mode = 'plan', permission_prompt = 'chat' })
      local notes = {}
      vim.ui.input = function(opts, cb)
        table.insert(notes, opts.prompt)
        cb(case.note)
      end
      vim.cmd('Companion')
      local app = h.app()
      h.wait(function() return (app.chat.status or ''):find('mode: Plan', 1, true) end, 'plan mode')
      require('companion').open('Bump the version')
      h.wait(function() return h.transcript():find('? [permission]', 1, true) ~= nil end, 'the plan card')
      local key = ({ allow_always = 'a', allow_once = 'y', reject_once = 'n' })[case.kind]
      vim.api.nvim_set_current_win(app.chat.win)
      vim.api.nvim_feedkeys(key, 'x', false)
      h.wait_turn()
      local text = h.transcript()
      assert.matches(case.says, text, 1, true)
      assert.matches(case.mode, app.chat.status, 1, true)
      assert.are.equal(case.plan and ('### Plan\n- [ ] ' .. table.concat(plan_steps, '\n- [ ] ')) or nil,
        text:match('### Plan\n[^#]*[^\n#]'))
      assert.are.same(case.note and { 'Keep planning: a note for the agent (optional): ' } or {}, notes)
      assert.are.same({}, h.unexpected)
    end)
  end
end)

describe('ask_user', function()
  after_each(h.reset)

  it('asks the questions with their choices described and "Other" in the user\'s words', function()
    h.start('askuser')
    local selects, inputs = {}, {}
    vim.ui.select = function(items, opts, cb)
      local shown = vim.tbl_map(opts.format_item or tostring, items)
      table.insert(selects, { prompt = opts.prompt, items = shown })
      if items[1] == 'Fill in the form' then
        return cb(items[1])
      end
      cb(items[#items]) -- "Other"
    end
    vim.ui.input = function(opts, cb)
      table.insert(inputs, opts.prompt)
      if opts.prompt:find('^Storage: other') then
        return cb('Postgres, we run it already')
      end
      cb('Export, Sync')
    end
    require('companion').open('Store the sessions')
    h.wait_turn()
    assert.matches('Postgres it is, with export and sync.', h.transcript(), 1, true)
    assert.are.equal('companion asks:\n1. Where should sessions be stored?\n2. Which extras do you want?', selects[1].prompt)
    assert.are.same({ 'SQLite — One file, queries', 'JSONL — Append-only files', 'Other — Answer in your own words below.' },
      selects[2].items)
    -- Storage's own words right after its choice; Extras' not asked, as "Other" was not picked.
    assert.are.equal(2, #selects)
    assert.are.equal(2, #inputs)
    assert.matches('^Storage: other', inputs[1])
    assert.matches('^Extras ', inputs[2])
  end)
end)
