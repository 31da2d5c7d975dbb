-- Headless Neovim (0.7+) as the client of `storyrun lsp`: opens a feature
-- file, waits for diagnostics, asks for a hover and a definition, and writes
-- what it got to $SMOKE_OUT, one line each. Run by test_neovim_smoke.
local out = {}
local file = os.getenv("SMOKE_FEATURE")
vim.cmd("edit " .. file)
local bufnr = vim.api.nvim_get_current_buf()
local client_id = vim.lsp.start_client({
  name = "storyrun",
  cmd = { os.getenv("STORYRUN"), "lsp" },
  root_dir = vim.fn.fnamemodify(file, ":h"),
})
vim.lsp.buf_attach_client(bufnr, client_id)
vim.wait(10000, function() return #vim.diagnostic.get(bufnr) > 0 end, 50)
for _, d in ipairs(vim.diagnostic.get(bufnr)) do
  table.insert(out, "diagnostic " .. d.lnum .. " " .. d.message:gsub("\n.*", ""))
end
local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = 2, character = 6 } }
local hover = vim.lsp.buf_request_sync(bufnr, "textDocument/hover", params, 5000) or {}
for _, response in pairs(hover) do
  if response.result then table.insert(out, "hover " .. response.result.contents.value:gsub("\n.*", "")) end
end
local definition = vim.lsp.buf_request_sync(bufnr, "textDocument/definition", params, 5000) or {}
for _, response in pairs(definition) do
  if response.result and response.result[1] then
    table.insert(out, "definition " .. response.result[1].uri .. ":" .. response.result[1].range.start.line)
  end
end
vim.fn.writefile(out, os.getenv("SMOKE_OUT"))
vim.lsp.stop_client(client_id)
vim.cmd("qa!")
