-- Image files attached to the next prompt (:CompanionAttach): each goes to
-- the agent as an ACP image block (base64 data and its MIME type) when
-- the agent advertised promptCapabilities.image. Its methods are the
-- app's (app.lua installs them).
local M = { methods = {} }

-- mime_types are the image types models take, by file extension.
M.mime_types = { png = 'image/png', jpg = 'image/jpeg', jpeg = 'image/jpeg', gif = 'image/gif', webp = 'image/webp' }

-- max_bytes caps one image (models take about 20 MB of inline data per
-- request in all).
M.max_bytes = 10 * 1024 * 1024

local alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

-- encode returns data in base64: vim.base64 (0.10+), else plain Lua 5.1
-- arithmetic (no bit library needed).
function M.encode(data)
  if vim.base64 and vim.base64.encode then
    return vim.base64.encode(data)
  end
  local out, n = {}, 0
  for i = 1, #data, 3 do
    local a, b, c = data:byte(i, i + 2)
    local v = a * 65536 + (b or 0) * 256 + (c or 0)
    local c1, c2 = math.floor(v / 262144) % 64, math.floor(v / 4096) % 64
    local c3, c4 = math.floor(v / 64) % 64, v % 64
    n = n + 1
    out[n] = alphabet:sub(c1 + 1, c1 + 1) .. alphabet:sub(c2 + 1, c2 + 1)
      .. (b and alphabet:sub(c3 + 1, c3 + 1) or '=') .. (c and alphabet:sub(c4 + 1, c4 + 1) or '=')
  end
  return table.concat(out)
end

-- image reads path into an image block; nil and the reason when it cannot.
function M.image(path)
  local ext = (vim.fn.fnamemodify(path, ':e') or ''):lower()
  local mime = M.mime_types[ext]
  if not mime then
    return nil, ('%s is not an image companion can send (png, jpeg, gif, webp)'):format(path)
  end
  local f = io.open(path, 'rb')
  if not f then
    return nil, ('cannot read %s'):format(path)
  end
  local data = f:read('*a')
  f:close()
  if #data == 0 then
    return nil, ('%s is empty'):format(path)
  end
  if #data > M.max_bytes then
    return nil, ('%s is too large (%d bytes; at most %d)'):format(path, #data, M.max_bytes)
  end
  return { type = 'image', mimeType = mime, data = M.encode(data) }
end

-- attach adds an image file to the next prompt; it tells the user in the
-- chat and returns true when the file can go.
function M.methods:attach(path)
  path = vim.fn.fnamemodify(vim.fn.expand(path or ''), ':p')
  local block, err = M.image(path)
  if block and self.client and not self.client:supports('image') then
    block, err = nil, 'the agent does not take images'
  end
  if not block then
    self:note(('(Not attached: %s.)'):format(err))
    return false
  end
  self.attachments = self.attachments or {}
  table.insert(self.attachments, { path = path, block = block })
  self:note(('(Attached %s: it goes with your next prompt.)'):format(vim.fn.fnamemodify(path, ':~:.')))
  return true
end

-- take_attachments returns the image blocks attached for this prompt and
-- forgets them; an agent that does not take images gets none (the user
-- is told).
function M.methods:take_attachments()
  local list = self.attachments or {}
  self.attachments = nil
  if #list == 0 then
    return {}
  end
  if not self.client:supports('image') then
    self:note('(The agent does not take images: the attached files were not sent.)')
    return {}
  end
  local blocks = {}
  for _, a in ipairs(list) do
    blocks[#blocks + 1] = a.block
    self.chat.transcript:append_text('user', '\n[image: ' .. vim.fn.fnamemodify(a.path, ':t') .. ']')
  end
  return blocks
end

return M
