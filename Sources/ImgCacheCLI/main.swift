import ImgCache
print("imgcache")
