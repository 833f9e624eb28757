// @web/test-runner plugin: the `svc-press` command presses a key chord such as `Shift+Tab` in every engine.
// @web/test-runner-commands' sendKeys passes `press` through to Playwright, which knows chords; puppeteer-core
// (Firefox) and WebDriver (WebKit) do not, and its webdriver path has no key down/up at all.
const WEBDRIVER_KEYS = {
  Shift: '\uE008',
  Control: '\uE009',
  Alt: '\uE00A',
  Meta: '\uE03D',
  Tab: '\uE004',
  Enter: '\uE007',
  Space: ' ',
  Escape: '\uE00C',
};

export function keysPlugin() {
  return {
    name: 'svc-keys',
    async executeCommand({ command, payload, session }) {
      if (command !== 'svc-press') return undefined;
      const keys = String(payload).split('+');
      const { browser } = session;
      if (browser.type === 'playwright') {
        await browser.getPage(session.id).keyboard.press(String(payload));
      } else if (browser.type === 'puppeteer') {
        const { keyboard } = browser.getPage(session.id);
        for (const key of keys.slice(0, -1)) await keyboard.down(key);
        await keyboard.press(keys.at(-1));
        for (const key of keys.slice(0, -1).reverse()) await keyboard.up(key);
      } else if (browser.type === 'webdriver') {
        const values = keys.map((key) => WEBDRIVER_KEYS[key] ?? key);
        await browser.driverManager.performActions(session.id, [
          {
            type: 'key',
            id: 'svc-keyboard',
            actions: [
              ...values.map((value) => ({ type: 'keyDown', value })),
              ...values.reverse().map((value) => ({ type: 'keyUp', value })),
            ],
          },
        ]);
      } else {
        throw new Error(`svc-press cannot drive ${browser.type}`);
      }
      return true;
    },
  };
}
