-- Forms an MCP server asks for (elicitation/create): the field logic, and
-- server-everything's full form through the real agent.
local h = require('helpers')
local elicit = require('companion.elicit')

-- everything is server-everything's entry point, installed by `make test-deps`.
local everything = vim.fn.fnamemodify(h.bin(), ':h:h') .. '/tools/mcp/testdata/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js'

describe('elicitation', function()
  after_each(h.reset)

  it('orders required fields first and reads choices and typed values', function()
    local schema = {
      properties = { b = { type = 'string' }, a = { type = 'string' }, must = { type = 'integer' } },
      required = { 'must' },
    }
    assert.are.same({ 'must', 'a', 'b' }, elicit.order(schema))
    -- ask_user's shape: a choice offering "Other", then its own-words field.
    local q = { type = 'string', oneOf = { { const = 'A', title = 'A' }, { const = 'Other', title = 'Other' } } }
    assert.are.same({ 'q1', 'q1_other', 'q2', 'q2_other' }, elicit.order({
      properties = { q1 = q, q1_other = { type = 'string' }, q2 = q, q2_other = { type = 'string' } },
      required = { 'q1', 'q2' },
    }))
    assert.are.same({ { value = 'p1', label = 'Cats' }, { value = 'p2', label = 'Dogs' } },
      elicit.choices({ type = 'string', enum = { 'p1', 'p2' }, enumNames = { 'Cats', 'Dogs' } }))
    assert.are.same({ { value = 'f1', label = 'Tuna' } },
      elicit.choices({ type = 'array', items = { anyOf = { { const = 'f1', title = 'Tuna' } } } }))
    assert.is_nil(elicit.choices({ type = 'string' }))
    assert.are.equal(7, elicit.parse({ type = 'integer' }, '7'))
    assert.is_nil((elicit.parse({ type = 'integer' }, '7.5')))
    assert.is_nil((elicit.parse({ type = 'number', maximum = 10 }, '11')))
    local fish = elicit.choices({ type = 'array', items = { anyOf = { { const = 'f1', title = 'Tuna' }, { const = 'f2', title = 'Trout' } } } })
    assert.are.same({ 'f1', 'f2' }, elicit.parse({ type = 'array' }, 'Tuna, f2', fish))
  end)

  it('asks a server\'s whole form and the answer reaches the server', function()
    if vim.fn.filereadable(everything) == 0 then
      pending('server-everything is not installed (make test-deps)')
      return
    end
    local env = h.start('elicit')
    vim.fn.mkdir(env.ws .. '/home/.config/companion', 'p')
    h.write_file(env.ws .. '/home/.config/companion/settings.json', vim.json.encode({
      mcpServers = { everything = { command = 'node', args = { everything, 'stdio' } } },
    }))
    local form_prompts, fields = {}, {}
    vim.ui.select = function(items, opts, cb)
      if items[1] and items[1].kind then -- the tool's permission
        return cb(h.by_kind('allow_once')(items))
      end
      table.insert(form_prompts, opts.prompt)
      cb(items[1]) -- "Fill in the form", then the first choice of each choice field
    end
    vim.ui.input = function(opts, cb)
      table.insert(fields, opts.prompt)
      if opts.prompt:find('legal name', 1, true) then
        return cb('Nvim User')
      end
      cb(opts.default or '')
    end
    -- The first prompt gives MCP servers only a short head start; under
    -- load Node may need longer, so wait for the server's prompts to be
    -- announced as commands (it is connected then) before asking.
    require('companion').open()
    local complete = require('companion.complete')
    h.wait(function()
      for _, c in ipairs(complete.get_commands()) do
        if vim.startswith(c.name, 'everything:') then
          return true
        end
      end
      return false
    end, "server-everything's prompts")
    require('companion').open('Sign me up')
    h.wait_turn()
    assert.matches('The form came back filled in.', h.transcript(), 1, true)
    assert.matches('MCP server everything: Please provide', form_prompts[1], 1, true)
    assert.matches('^String %(Your full, legal name%): $', fields[1])
    assert.is_true(#form_prompts >= 4, vim.inspect(form_prompts)) -- the form, a boolean and the single choices
  end)
end)
