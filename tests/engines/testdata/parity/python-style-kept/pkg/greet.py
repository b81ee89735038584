GREETINGS = {'en': 'Hello', 'fr': 'Bonjour'}


def greet(name, lang='en'):
    return '%s, %s!' % (GREETINGS[lang], name)
